import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box, Button, IconButton, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import HelpOutline from '@mui/icons-material/HelpOutlined';
import { DEBOUNCE_MS, type StudyFilters } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { DATE_PRESETS, UPLOADED_DATE_PRESETS, isRangeComplete } from '../../../lib/dates';
import { DayField } from '../../../components/DayField';
import {
  EMPTY_ADVANCED_FILTERS,
  SEX_OPTIONS,
  TRI_STATE_OPTIONS,
  type AdvancedFilters,
  type SexFilter,
  type TriState,
  withIsoBirthDate,
} from '../lib/advanced-filters';
import { searchFilters } from '../lib/search-filters';
import { matchCountQuery } from '../api/match-count';
import { DateRangeField } from './DateRangeField';
import { ModalitySelect } from './ModalitySelect';
import { SavedSearches } from './SavedSearches';
import { SearchTipsDialog } from './SearchTipsDialog';
import { TagsInput } from './TagsInput';

interface Props {
  id: string;
  initial: AdvancedFilters;
  onSearch: (filters: AdvancedFilters) => void;
  /** The study/list filters of where Search goes (its group's first state); none: no preview. */
  countScope?: StudyFilters | null;
}

type TextKey = {
  [K in keyof AdvancedFilters]: AdvancedFilters[K] extends string ? K : never;
}[keyof AdvancedFilters];

const TEXT_FIELDS: { key: TextKey; label: string }[] = [
  { key: 'patientName', label: 'Patient name' },
  { key: 'mrn', label: 'MRN' },
];
const MORE_TEXT_FIELDS: { key: TextKey; label: string }[] = [
  { key: 'accessionNumber', label: 'Accession number' },
  { key: 'referringPhysician', label: 'Referring physician' },
  { key: 'studyUid', label: 'Study UID' },
  { key: 'studyUuid', label: 'Study UUID' },
  { key: 'sourceTitle', label: 'Source title' },
  { key: 'destinationTitle', label: 'Destination title' },
];

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Selects whose empty value means All show the word instead of an empty box. */
const ALL_VISIBLE = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Every advanced field of SPEC.md section 2, with Clear, Search, search tips and saved searches. */
export function AdvancedSearchPanel({ id, initial, onSearch, countScope = null }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AdvancedFilters>(() => withIsoBirthDate(initial));
  const [tipsOpen, setTipsOpen] = useState(false);
  const set = <K extends keyof AdvancedFilters>(key: K, value: AdvancedFilters[K]) =>
    setDraft((prev) => ({ ...prev, [key]: value }));

  // DayField hands over YYYY-MM-DD once the typed text reads as a day in the user's format.
  const birthDateInvalid = draft.birthDate.trim() !== '' && !ISO_DAY.test(draft.birthDate);
  const invalid =
    birthDateInvalid || !isRangeComplete(draft.studyDate) || !isRangeComplete(draft.uploadedDate);

  // How many exams Search would show, asked once typing pauses for the advanced-search debounce
  // (SPEC.md section 9), not on every keystroke.
  const settled = useDebouncedValue(draft, DEBOUNCE_MS);
  const settledInvalid =
    (settled.birthDate.trim() !== '' && !ISO_DAY.test(settled.birthDate)) ||
    !isRangeComplete(settled.studyDate) ||
    !isRangeComplete(settled.uploadedDate);
  const countFilters = useMemo(
    () =>
      countScope && {
        ...countScope,
        ...searchFilters({ patientName: '', advanced: settled }, new Date(), timeZone),
      },
    [countScope, settled],
  );
  const matches = useQuery({
    ...matchCountQuery(countFilters ?? {}),
    enabled: countFilters !== null && !settledInvalid,
  });

  const text = ({ key, label }: { key: TextKey; label: string }) => (
    <TextField
      key={key}
      size="small"
      label={t(label)}
      value={draft[key]}
      onChange={(e) => set(key, e.target.value)}
    />
  );

  return (
    <Box
      id={id}
      component="form"
      aria-label={t('Advanced search')}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!invalid) onSearch(draft);
      }}
      sx={{ px: 1.5, pb: 1.5 }}
    >
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
        {TEXT_FIELDS.map(text)}
        <DayField
          size="small"
          label={t('Date of birth')}
          value={draft.birthDate}
          onChange={(day) => set('birthDate', day)}
        />
        <TextField
          select
          size="small"
          label={t('Sex')}
          value={draft.sex}
          slotProps={ALL_VISIBLE}
          onChange={(e) => set('sex', e.target.value as SexFilter)}
        >
          {SEX_OPTIONS.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {t(o.label)}
            </MenuItem>
          ))}
        </TextField>
        {MORE_TEXT_FIELDS.slice(0, 2).map(text)}
        <ModalitySelect value={draft.modalities} onChange={(v) => set('modalities', v)} />
        {(['starred', 'thin'] as const).map((key) => (
          <TextField
            key={key}
            select
            size="small"
            label={t(key === 'starred' ? 'Starred' : 'Thin')}
            value={draft[key]}
            slotProps={ALL_VISIBLE}
            onChange={(e) => set(key, e.target.value as TriState)}
          >
            {TRI_STATE_OPTIONS.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {t(o.label)}
              </MenuItem>
            ))}
          </TextField>
        ))}
        {MORE_TEXT_FIELDS.slice(2).map(text)}
        <DateRangeField
          label="Study date"
          presets={DATE_PRESETS}
          value={draft.studyDate}
          onChange={(v) => set('studyDate', v)}
        />
        <DateRangeField
          label="Uploaded date"
          presets={UPLOADED_DATE_PRESETS}
          value={draft.uploadedDate}
          onChange={(v) => set('uploadedDate', v)}
        />
        <TagsInput value={draft.tags} onChange={(v) => set('tags', v)} />
        <TextField
          size="small"
          label={t('Study description')}
          multiline
          minRows={4}
          value={draft.studyDescription}
          onChange={(e) => set('studyDescription', e.target.value)}
          sx={{ gridColumn: 'span 2' }}
        />
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
        <SavedSearches current={draft} onApply={(saved) => setDraft(withIsoBirthDate(saved))} />
        <Tooltip title={t('Search tips')}>
          <IconButton aria-label={t('Search tips')} onClick={() => setTipsOpen(true)}>
            <HelpOutline />
          </IconButton>
        </Tooltip>
        <Box sx={{ flex: 1 }} />
        {countFilters && !invalid && matches.data && (
          <Typography role="status" variant="body2" color="text.secondary">
            {t('{{count}} exams match', { count: matches.data.count })}
          </Typography>
        )}
        <Button type="button" onClick={() => setDraft(EMPTY_ADVANCED_FILTERS)}>
          {t('Clear')}
        </Button>
        <Button type="submit" variant="contained" disabled={invalid}>
          {t('Search')}
        </Button>
      </Stack>
      <SearchTipsDialog open={tipsOpen} onClose={() => setTipsOpen(false)} />
    </Box>
  );
}
