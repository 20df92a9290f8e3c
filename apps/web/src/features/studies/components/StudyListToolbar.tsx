import { FormControl, InputLabel, MenuItem, Select, Stack, Typography } from '@mui/material';
import { STUDY_SORTS, type StudySortLabel } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';

interface Props {
  header: string;
  total: number | undefined;
  sort: string;
  options: StudySortLabel[];
  onSort: (sort: string) => void;
}

/** The result header with the total, and the sort select. */
export function StudyListToolbar({ header, total, sort, options, onSort }: Props) {
  const { t } = useTranslation();
  return (
    <Stack
      direction="row"
      useFlexGap
      sx={{ px: 2, py: 1, alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 1 }}
    >
      {/* One line, never wrapped: beside the open exam panel ("PACS Intake · Soumissions (4 examens)"
          in a 440 px list) the sort box moves under the title rather than the title breaking into
          three lines; only a title wider than the whole list is cut, and its tooltip shows it whole. */}
      <Typography
        variant="h6"
        component="h2"
        noWrap
        title={header}
        sx={{ flex: '1 0 auto', maxWidth: '100%', lineHeight: 1.3 }}
      >
        {header}
        {total !== undefined && (
          <Typography component="span" color="text.secondary" sx={{ ml: 1 }} data-testid="study-total">
            ({t('{{count}} exams', { count: total })})
          </Typography>
        )}
      </Typography>
      <FormControl size="small" sx={{ minWidth: 200, ml: 'auto' }}>
        <InputLabel id="study-sort-label">{t('Sort by')}</InputLabel>
        <Select
          labelId="study-sort-label"
          label={t('Sort by')}
          value={sort}
          onChange={(e) => onSort(e.target.value)}
        >
          {options.map((label) => (
            <MenuItem key={label} value={STUDY_SORTS[label]}>
              {t(label)}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
    </Stack>
  );
}
