import { MenuItem, TextField } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { useAnonymizationProfiles } from '../api/anonymization';

interface Props {
  /** The account whose profiles may be chosen (the server refuses any other account's). */
  accountId: string;
  /** The chosen profile's uuid; '' for none. */
  value: string;
  onChange: (uuid: string) => void;
  /** The field's label, translated by the caller. */
  label: string;
  /** Under the field: the server's refusal (shown as an error) or a hint. */
  helperText?: string | undefined;
  error?: boolean | undefined;
  disabled?: boolean | undefined;
}

/**
 * A de-identification profile of the account, or none (decision 0071): the destination, request
 * link and routing rule forms. Listing needs anonymization_view; without it the field shows the
 * profile already set (by its id) and cannot be changed here.
 */
export function ProfileSelect({ accountId, value, onChange, label, helperText, error, disabled }: Props) {
  const { t } = useTranslation();
  const profiles = useAnonymizationProfiles(accountId);
  const list = profiles.data ?? [];
  const unknown = value !== '' && !list.some((p) => p.uuid === value);
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      disabled={disabled || !profiles.isSuccess}
      error={error}
      helperText={
        helperText ?? (profiles.isError ? t('No de-identification profile is available to you.') : undefined)
      }
      fullWidth
    >
      <MenuItem value="">{t('None: not de-identified')}</MenuItem>
      {list.map((p) => (
        <MenuItem key={p.uuid} value={p.uuid}>
          {p.name}
        </MenuItem>
      ))}
      {unknown && <MenuItem value={value}>{t('A profile you cannot see')}</MenuItem>}
    </TextField>
  );
}
