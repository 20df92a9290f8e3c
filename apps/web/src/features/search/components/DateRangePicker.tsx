import { useState } from 'react';
import { DayPicker, type DateRange } from 'react-day-picker';
import { startOfMonth, subMonths } from 'date-fns';
import 'react-day-picker/style.css';
import {
  Box,
  Button,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { useDateDisplay } from '../../../lib/date-preferences';
import { useDayPickerLocale } from '../../../lib/use-day-picker-locale';
import { dateFormatHint } from '../../../lib/date-format-hint';
import {
  DATE_SEARCH_MODES,
  displayDay as showDay,
  fromIsoDay,
  isRangeComplete,
  parseTypedDay as readDay,
  presetRange,
  toIsoDay,
  type DatePreset,
  type DateRangeValue,
  type DateSearchMode,
} from '../../../lib/dates';

interface Props {
  presets: readonly DatePreset[];
  value: DateRangeValue;
  onCancel: () => void;
  onSave: (value: DateRangeValue) => void;
  /** Whether days after today may be picked; the inbox's study and upload dates never lie ahead. */
  allowFuture?: boolean;
}

const CUSTOM: DatePreset = 'Custom date range';

/**
 * Presets on the left, a two-month calendar (weeks start Monday) with editable date inputs and the
 * search mode on the right. A preset applies and closes at once; Custom keeps the calendar open until
 * Save (or Cancel).
 */
export function DateRangePicker({ presets, value, onCancel, onSave, allowFuture = false }: Props) {
  const { t } = useTranslation();
  // Typed and shown in the user's date format (Profile), not the browser's.
  const { format: dateFormat } = useDateDisplay();
  const locale = useDayPickerLocale();
  const displayDay = (day: string | null) => showDay(day, dateFormat);
  const parseTypedDay = (text: string) => readDay(text, dateFormat);
  const [draft, setDraft] = useState<DateRangeValue>(
    value.label === CUSTOM ? value : { ...value, ...presetRange(value.label, new Date()) },
  );
  const [typed, setTyped] = useState({ start: displayDay(draft.startDate), end: displayDay(draft.endDate) });

  const custom = (patch: Partial<DateRangeValue>) => {
    const next: DateRangeValue = { ...draft, ...patch, label: CUSTOM };
    setDraft(next);
    setTyped({ start: displayDay(next.startDate), end: displayDay(next.endDate) });
  };

  const choosePreset = (preset: DatePreset) => {
    if (preset === CUSTOM) {
      setDraft({ ...draft, label: CUSTOM });
      return;
    }
    onSave({ label: preset, mode: 'Between', ...presetRange(preset, new Date()) });
  };

  const typeDay = (which: 'start' | 'end', text: string) => {
    setTyped((prev) => ({ ...prev, [which]: text }));
    const parsed = text.trim() === '' ? null : parseTypedDay(text);
    if (text.trim() !== '' && parsed === null) return;
    setDraft((prev) => ({ ...prev, label: CUSTOM, [which === 'start' ? 'startDate' : 'endDate']: parsed }));
  };

  const single = draft.mode !== 'Between';
  const singleKey = draft.mode === 'Before' ? 'endDate' : 'startDate';
  const singleDay = draft[singleKey];
  const range: DateRange | undefined = draft.startDate
    ? { from: fromIsoDay(draft.startDate), to: draft.endDate ? fromIsoDay(draft.endDate) : undefined }
    : undefined;
  const invalidTyped =
    (typed.start.trim() !== '' && parseTypedDay(typed.start) === null) ||
    (typed.end.trim() !== '' && parseTypedDay(typed.end) === null);
  const canSave = draft.label === CUSTOM ? !invalidTyped && isRangeComplete(draft) : true;
  // The two months shown end with the chosen (else today's) month: the previous month and that one,
  // never a month that lies ahead where future days are not allowed.
  const today = new Date();
  const anchor = fromIsoDay((single ? singleDay : (draft.endDate ?? draft.startDate)) ?? toIsoDay(today));
  const month = subMonths(startOfMonth(anchor), 1);
  const limits = allowFuture ? {} : { disabled: { after: today }, endMonth: today };

  return (
    <Box
      sx={{
        display: 'flex',
        p: 1,
        '--rdp-accent-color': '#1565c0',
        '--rdp-day-height': '36px',
        '--rdp-day-width': '36px',
      }}
    >
      <List
        dense
        sx={{ minWidth: 190, borderRight: 1, borderColor: 'divider' }}
        aria-label={t('Date presets')}
      >
        {presets.map((preset) => (
          <ListItem key={preset} disablePadding>
            <ListItemButton selected={draft.label === preset} onClick={() => choosePreset(preset)}>
              <ListItemText primary={t(preset)} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      <Box sx={{ px: 2 }}>
        <Stack direction="row" spacing={1} sx={{ pt: 1, alignItems: 'flex-start' }}>
          <TextField
            select
            size="small"
            label={t('Search mode')}
            value={draft.mode}
            onChange={(e) => custom({ mode: e.target.value as DateSearchMode })}
            // Wide enough for its label whole ("Mode de recherche").
            sx={{ minWidth: 160 }}
          >
            {DATE_SEARCH_MODES.map((mode) => (
              <MenuItem key={mode} value={mode}>
                {t(mode)}
              </MenuItem>
            ))}
          </TextField>
          {draft.mode !== 'Before' && (
            <TextField
              size="small"
              label={t(single ? 'Date' : 'Start date')}
              placeholder={dateFormatHint(dateFormat)}
              value={typed.start}
              error={typed.start.trim() !== '' && parseTypedDay(typed.start) === null}
              onChange={(e) => typeDay('start', e.target.value)}
            />
          )}
          {(draft.mode === 'Between' || draft.mode === 'Before') && (
            <TextField
              size="small"
              label={t(single ? 'Date' : 'End date')}
              placeholder={dateFormatHint(dateFormat)}
              value={typed.end}
              error={typed.end.trim() !== '' && parseTypedDay(typed.end) === null}
              onChange={(e) => typeDay('end', e.target.value)}
            />
          )}
        </Stack>
        {single ? (
          <DayPicker
            mode="single"
            numberOfMonths={2}
            weekStartsOn={1}
            locale={locale}
            defaultMonth={month}
            {...limits}
            selected={singleDay ? fromIsoDay(singleDay) : undefined}
            onSelect={(day) => custom({ [singleKey]: day ? toIsoDay(day) : null })}
          />
        ) : (
          <DayPicker
            mode="range"
            numberOfMonths={2}
            weekStartsOn={1}
            locale={locale}
            defaultMonth={month}
            {...limits}
            selected={range}
            onSelect={(next) =>
              custom({
                startDate: next?.from ? toIsoDay(next.from) : null,
                endDate: next?.to ? toIsoDay(next.to) : null,
              })
            }
          />
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', pb: 1 }}>
          <Button onClick={onCancel}>{t('Cancel')}</Button>
          <Button variant="contained" disabled={!canSave} onClick={() => onSave(draft)}>
            {t('Save')}
          </Button>
        </Stack>
      </Box>
    </Box>
  );
}
