import { useRef, useState, type KeyboardEvent } from 'react';
import {
  Checkbox,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  alpha,
  type Theme,
} from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatModalities, formatPatientName } from '../../../lib/format';
import { useDateDisplay } from '../../../lib/date-preferences';
import { columnDirection, nextSort, type SortableColumn } from '../lib/column-sort';
import { ScrollCueFrame, useScrollCue } from '../../../components/ScrollCueFrame';

interface Props {
  studies: Study[];
  sort: string;
  onSort: (sort: string) => void;
  checked: ReadonlySet<string>;
  onCheck: (study: Study, checked: boolean) => void;
  /** Enter or a double click on a row. */
  onOpen: (study: Study) => void;
  /** The name of the group that holds a study. */
  groupName: (study: Study) => string;
}

/** Width of the selection column, so the patient column can stick right after it. */
const CHECK_WIDTH = 42;

const tableSx = {
  // Columns keep their natural width; a narrow area scrolls the table sideways instead of cutting it.
  minWidth: 'max-content',
  '& td, & th': { py: 0.5, px: 1, whiteSpace: 'nowrap' },
  // A long description is cut with an ellipsis (its full text is the cell's title).
  // At 240 px the columns up to Uploaded (a sort key) fit a 1280 px window; Images and Group follow.
  '& td.desc': { maxWidth: 240, minWidth: 120, overflow: 'hidden', textOverflow: 'ellipsis' },
  '& tr:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
  // The selection box and the patient's name stay in view while the table scrolls sideways; an
  // opaque background keeps the scrolled cells from showing through, tinted as the row is.
  '& td:nth-of-type(-n+2), & th:nth-of-type(-n+2)': {
    position: 'sticky',
    zIndex: 1,
    bgcolor: 'background.paper',
  },
  '& th:nth-of-type(-n+2)': { zIndex: 3 },
  '& td:first-of-type, & th:first-of-type': { left: 0, width: CHECK_WIDTH, minWidth: CHECK_WIDTH, px: 0 },
  '& td:nth-of-type(2), & th:nth-of-type(2)': {
    left: CHECK_WIDTH,
    boxShadow: 'inset -1px 0 0 rgba(0,0,0,0.12)',
  },
  '& tr.Mui-selected td:nth-of-type(-n+2)': {
    backgroundImage: (theme: Theme) =>
      `linear-gradient(${alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity)}, ${alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity)})`,
  },
} as const;

const scrolledSx = {
  flex: 1,
  minHeight: 0,
  display: 'flex',
  flexDirection: 'column',
  '&::before': { display: 'none' },
  '&:is([data-scroll-cue="start"], [data-scroll-cue="both"]) :is(td, th):nth-of-type(2)': {
    boxShadow: '6px 0 8px -4px rgba(0,0,0,0.3)',
  },
} as const;

/**
 * The worklist's dense table. One row holds the keyboard focus (roving tabindex): arrow keys move
 * it, Space toggles the row's selection, Enter opens the study.
 */
export function WorklistTable({ studies, sort, onSort, checked, onCheck, onOpen, groupName }: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const [focus, setFocus] = useState(0);
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const focused = Math.min(focus, Math.max(studies.length - 1, 0));

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(studies.length - 1, index));
    setFocus(next);
    rows.current[next]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, index: number, study: Study) => {
    // Keys typed into the row's checkbox keep their own meaning.
    if (e.target !== e.currentTarget) return;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(index + 1),
      ArrowUp: () => moveTo(index - 1),
      Home: () => moveTo(0),
      End: () => moveTo(studies.length - 1),
      ' ': () => onCheck(study, !checked.has(study.uuid)),
      Enter: () => onOpen(study),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };

  const sortable = (column: SortableColumn, label: string) => {
    const direction = columnDirection(sort, column);
    return (
      <TableCell sortDirection={direction}>
        <TableSortLabel
          active={direction !== false}
          direction={direction || (column === 'patient' ? 'asc' : 'desc')}
          onClick={() => onSort(nextSort(sort, column))}
        >
          {t(label)}
        </TableSortLabel>
      </TableCell>
    );
  };
  const scroll = useScrollCue<HTMLDivElement>();
  const allChecked = studies.length > 0 && studies.every((s) => checked.has(s.uuid));
  const someChecked = studies.some((s) => checked.has(s.uuid));

  return (
    // Images and Group (with a selection, more) lie past the right edge at 1280 px: the frame's
    // shadow says so. Scrolled columns pass under the patient's name, whose edge casts the start shadow.
    <ScrollCueFrame cue={scroll.cue} sx={scrolledSx}>
      <TableContainer
        ref={scroll.ref}
        sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}
        data-testid="worklist-scroll"
      >
        <Table size="small" stickyHeader sx={tableSx} aria-label={t('Exams')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={allChecked}
                  indeterminate={someChecked && !allChecked}
                  onChange={(e) => studies.forEach((s) => onCheck(s, e.target.checked))}
                  slotProps={{ input: { 'aria-label': t('Select all exams on this page') } }}
                />
              </TableCell>
              {sortable('patient', 'Patient name')}
              <TableCell>{t('MRN')}</TableCell>
              {sortable('studyDate', 'Study date')}
              <TableCell>{t('Modality')}</TableCell>
              <TableCell>{t('Description')}</TableCell>
              {sortable('uploaded', 'Uploaded')}
              <TableCell align="right">{t('Images')}</TableCell>
              <TableCell>{t('Group')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {studies.map((study, index) => {
              const name = formatPatientName(study.patient_name) || t('Unknown patient');
              const isChecked = checked.has(study.uuid);
              return (
                <TableRow
                  key={study.uuid}
                  ref={(el) => {
                    rows.current[index] = el;
                  }}
                  hover
                  selected={isChecked}
                  tabIndex={index === focused ? 0 : -1}
                  aria-selected={isChecked}
                  onFocus={() => setFocus(index)}
                  onKeyDown={(e) => onKeyDown(e, index, study)}
                  onDoubleClick={() => onOpen(study)}
                  data-testid="worklist-row"
                >
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      tabIndex={-1}
                      checked={isChecked}
                      onChange={(e) => onCheck(study, e.target.checked)}
                      slotProps={{ input: { 'aria-label': t('Select {{name}}', { name }) } }}
                    />
                  </TableCell>
                  <TableCell>{name}</TableCell>
                  <TableCell>{study.patientid || '—'}</TableCell>
                  <TableCell>{dates.day(study.study_date) || '—'}</TableCell>
                  <TableCell>{formatModalities(study.modality) || '—'}</TableCell>
                  <TableCell className="desc" title={study.study_description}>
                    {study.study_description || '—'}
                  </TableCell>
                  <TableCell>{dates.timestamp(study.created)}</TableCell>
                  <TableCell align="right">{study.image_count}</TableCell>
                  <TableCell>{groupName(study)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </ScrollCueFrame>
  );
}
