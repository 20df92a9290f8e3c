import { Chip, Stack } from '@mui/material';
import { REQUEST_DURATION_HINTS_MINUTES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';

/** The 1/3/12/24/48-hour shortcuts of SPEC.md section 9; a click fills the duration in minutes. */
export function DurationHints({
  onPick,
  disabled,
}: {
  onPick: (minutes: number) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap' }}
      aria-label={t('Duration shortcuts')}
    >
      {REQUEST_DURATION_HINTS_MINUTES.map((minutes) => (
        <Chip
          key={minutes}
          size="small"
          disabled={disabled}
          label={t('{{count}} hours ({{minutes}} minutes)', { count: minutes / 60, minutes })}
          onClick={() => onPick(minutes)}
        />
      ))}
    </Stack>
  );
}
