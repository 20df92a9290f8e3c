import { Alert, MenuItem, Stack, TextField } from '@mui/material';
import type { NominationFormField } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { ENTER_A_VALUE, formText, isMultiline } from '../../lib/nomination-form';

interface Props {
  fields: readonly NominationFormField[];
  answers: Record<string, string>;
  onChange: (name: string, value: string) => void;
  /** Fields left blank after a submit attempt. */
  missing: readonly string[];
  disabled?: boolean;
}

/** A gatekeeper's nomination form: its fields in order, required ones starred, choices as selects. */
export function NominationForm({ fields, answers, onChange, missing, disabled }: Props) {
  const { t } = useTranslation();
  return (
    <Stack spacing={1.5}>
      {fields.map((field) => {
        const blank = missing.includes(field.name);
        const common = {
          id: `nomination-${field.name}`,
          label: formText(field.label),
          required: field.required,
          value: answers[field.name] ?? '',
          onChange: (e: { target: { value: string } }) => onChange(field.name, e.target.value),
          error: blank,
          helperText: blank ? t(ENTER_A_VALUE) : undefined,
          disabled,
          size: 'small' as const,
          fullWidth: true,
        };
        return field.options?.length ? (
          <TextField key={field.name} select {...common}>
            {field.options.map((option) => (
              <MenuItem key={option} value={option}>
                {formText(option)}
              </MenuItem>
            ))}
          </TextField>
        ) : (
          <TextField
            key={field.name}
            {...common}
            multiline={isMultiline(field)}
            minRows={isMultiline(field) ? 2 : undefined}
            slotProps={{ htmlInput: { maxLength: 2000 } }}
          />
        );
      })}
      {fields.length === 0 && (
        <Alert severity="info">{t('This form has no fields: submit to nominate.')}</Alert>
      )}
    </Stack>
  );
}
