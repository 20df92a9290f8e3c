import { MenuItem, TextField } from '@mui/material';
import type { Role } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { ADMIN_CHOICE, NO_ROLE_CHOICE } from '../lib/user-role';

interface Props {
  value: string;
  onChange: (choice: string) => void;
  roles: readonly Role[];
  /** Only account admins give the admin role. */
  allowAdmin: boolean;
  helperText?: string | undefined;
  error?: boolean;
}

/** The account role of a user: Admin (every permission), one of the account's roles, or none. */
export function RolePicker({ value, onChange, roles, allowAdmin, helperText, error }: Props) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      label={t('Role')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      helperText={helperText}
      error={error}
      fullWidth
    >
      {(allowAdmin || value === ADMIN_CHOICE) && (
        <MenuItem value={ADMIN_CHOICE} disabled={!allowAdmin}>
          {t('Admin')}
        </MenuItem>
      )}
      <MenuItem value={NO_ROLE_CHOICE}>{t('User (no role)')}</MenuItem>
      {roles.map((r) => (
        <MenuItem key={r.uuid} value={r.uuid}>
          {r.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
