import { useRef, useState } from 'react';
import { Popover, TextField } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { useDateDisplay } from '../../../lib/date-preferences';
import { describeRange, type DatePreset, type DateRangeValue } from '../../../lib/dates';
import { DateRangePicker } from './DateRangePicker';

interface Props {
  label: string;
  presets: readonly DatePreset[];
  value: DateRangeValue;
  onChange: (value: DateRangeValue) => void;
}

/** A field showing the chosen range; opens the date range picker on click, Enter or Space. */
export function DateRangeField({ label, presets, value, onChange }: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const anchor = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  return (
    <>
      <TextField
        ref={anchor}
        size="small"
        label={t(label)}
        value={t(describeRange(value, dates.format))}
        onClick={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        slotProps={{ htmlInput: { readOnly: true, 'aria-haspopup': 'dialog', style: { cursor: 'pointer' } } }}
      />
      <Popover
        open={open}
        anchorEl={anchor.current}
        onClose={() => setOpen(false)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': t(label) } }}
      >
        <DateRangePicker
          presets={presets}
          value={value}
          onCancel={() => setOpen(false)}
          onSave={(next) => {
            onChange(next);
            setOpen(false);
          }}
        />
      </Popover>
    </>
  );
}
