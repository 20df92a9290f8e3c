import { useEffect, useState } from 'react';
import { TextField, type TextFieldProps } from '@mui/material';
import { useTranslation } from '../lib/i18n';
import { useDateDisplay } from '../lib/date-preferences';
import { displayDay, parseTypedDay } from '../lib/dates';
import { dateFormatHint } from '../lib/date-format-hint';

const ISO = /^\d{4}-\d{2}-\d{2}$/;

type Props = Omit<TextFieldProps, 'value' | 'onChange' | 'type'> & {
  /** The day as YYYY-MM-DD, '' for none (what a native date input held). */
  value: string;
  /**
   * The typed day as YYYY-MM-DD once it reads as one, '' when emptied, else the text as typed, so
   * the form's own date check refuses it as it refused a bad native value.
   */
  onChange: (value: string) => void;
};

/**
 * A day typed in the user's date format (Profile) instead of a native date input, whose format is
 * the browser's locale and differs from every other date the product shows.
 */
export function DayField({ value, onChange, helperText, error, ...rest }: Props) {
  const { t } = useTranslation();
  const { format } = useDateDisplay();
  const [typed, setTyped] = useState(() => (ISO.test(value) ? displayDay(value, format) : value));

  // Follow the form when it changes the day itself (Clear, a loaded value).
  useEffect(() => {
    setTyped((current) => {
      const shown = parseTypedDay(current, format);
      if (value === '' && current.trim() !== '' && shown !== null) return '';
      if (ISO.test(value) && shown !== value) return displayDay(value, format);
      return current;
    });
  }, [value, format]);

  const invalid = typed.trim() !== '' && parseTypedDay(typed, format) === null;
  return (
    <TextField
      {...rest}
      value={typed}
      placeholder={dateFormatHint(format)}
      error={error || invalid}
      helperText={
        invalid ? t('Use the date format {{format}}', { format: dateFormatHint(format) }) : helperText
      }
      slotProps={{ ...rest.slotProps, inputLabel: { shrink: true } }}
      onChange={(e) => {
        const text = e.target.value;
        setTyped(text);
        onChange(text.trim() === '' ? '' : (parseTypedDay(text, format) ?? text));
      }}
    />
  );
}
