import { Stack, TextField } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { DayField } from '../../../components/DayField';
import { isTime } from '../../../lib/zoned-time';

export interface DayTime {
  /** YYYY-MM-DD once typed in the user's date format, else the text as typed. */
  day: string;
  /** HH:MM, or '' for the start (From) or end (To) of the day. */
  time: string;
}

export const NO_DAY_TIME: DayTime = { day: '', time: '' };

/**
 * A moment typed as a day in the user's date format (Profile) and an optional 24-hour time,
 * instead of the browser's datetime input whose format and zone are the browser's.
 */
export function DayTimeField({
  label,
  timeLabel,
  value,
  onChange,
}: {
  label: string;
  timeLabel: string;
  value: DayTime;
  onChange: (value: DayTime) => void;
}) {
  const { t } = useTranslation();
  const badTime = value.time.trim() !== '' && !isTime(value.time);
  return (
    <Stack direction="row" spacing={1}>
      <DayField
        size="small"
        label={label}
        value={value.day}
        onChange={(day) => onChange({ ...value, day })}
        sx={{ width: 150 }}
      />
      <TextField
        size="small"
        label={timeLabel}
        placeholder="HH:MM"
        value={value.time}
        error={badTime}
        helperText={badTime ? t('Please enter time in HH:MM format') : undefined}
        onChange={(e) => onChange({ ...value, time: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric' } }}
        sx={{ width: 110 }}
      />
    </Stack>
  );
}
