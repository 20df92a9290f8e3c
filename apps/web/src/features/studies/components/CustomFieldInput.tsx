import {
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
} from '@mui/material';
import {
  CUSTOM_FIELD_MEMO_MAX_LENGTH,
  CUSTOM_FIELD_TEXT_MAX_LENGTH,
  type CustomField,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';

interface Props {
  field: CustomField;
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange: (value: string) => void;
}

/** One account custom field, drawn by its type; a required one is marked with a star. */
export function CustomFieldInput({ field, value, error, disabled, onChange }: Props) {
  const { t } = useTranslation();
  const required = field.required === 1;
  const helperText = error ? t(error) : undefined;
  if (field.type === 'radio') {
    const labelId = `customfield-${field.uuid}-label`;
    return (
      <FormControl required={required} error={Boolean(error)} disabled={disabled}>
        <FormLabel id={labelId}>{field.name}</FormLabel>
        <RadioGroup row aria-labelledby={labelId} value={value} onChange={(e) => onChange(e.target.value)}>
          {field.options.map((option) => (
            <FormControlLabel
              key={option.value}
              value={option.value}
              control={<Radio />}
              label={option.field_label}
            />
          ))}
        </RadioGroup>
        {helperText && <FormHelperText>{helperText}</FormHelperText>}
      </FormControl>
    );
  }
  if (field.type === 'select') {
    return (
      <TextField
        select
        label={field.name}
        required={required}
        error={Boolean(error)}
        helperText={helperText}
        disabled={disabled}
        value={value}
        fullWidth
        onChange={(e) => onChange(e.target.value)}
      >
        <MenuItem value="">
          <em>{t('None')}</em>
        </MenuItem>
        {field.options.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.field_label}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  const memo = field.type === 'memo';
  return (
    <TextField
      label={field.name}
      required={required}
      error={Boolean(error)}
      helperText={helperText}
      disabled={disabled}
      value={value}
      fullWidth
      multiline={memo}
      minRows={memo ? 3 : undefined}
      slotProps={{
        htmlInput: { maxLength: memo ? CUSTOM_FIELD_MEMO_MAX_LENGTH : CUSTOM_FIELD_TEXT_MAX_LENGTH },
      }}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
