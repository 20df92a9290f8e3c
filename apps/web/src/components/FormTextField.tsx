import { forwardRef, useId, type InputHTMLAttributes } from 'react';
import { FormControl, FormHelperText, InputLabel, OutlinedInput } from '@mui/material';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string;
  error?: boolean;
  helperText?: string;
}

/**
 * A labelled outlined input with helper text, for the sign-in pages. It avoids MUI's TextField,
 * whose select mode drags Menu, Popover and Modal into the first page's JavaScript.
 */
export const FormTextField = forwardRef<HTMLInputElement, Props>(function FormTextField(
  { label, error, helperText, required, disabled, id, ...input },
  ref,
) {
  const generated = useId();
  const inputId = id ?? generated;
  const helperId = `${inputId}-helper`;
  return (
    <FormControl fullWidth error={error} required={required} disabled={disabled} variant="outlined">
      <InputLabel htmlFor={inputId}>{label}</InputLabel>
      <OutlinedInput
        id={inputId}
        label={required ? `${label} *` : label}
        inputRef={ref}
        inputProps={{ ...input, 'aria-describedby': helperText ? helperId : undefined }}
      />
      {helperText && <FormHelperText id={helperId}>{helperText}</FormHelperText>}
    </FormControl>
  );
});
