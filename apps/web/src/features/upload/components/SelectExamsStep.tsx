import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Checkbox,
  Chip,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
} from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes, formatPatientName } from '../../../lib/format';
import { useDateDisplay } from '../../../lib/date-preferences';
import { ScrollTable } from '../../../components/ScrollTable';
import { useExistingStudies } from '../api/study-exists';
import type { FoundStudy } from '../lib/studies';

/** The patient table is 1190 px wide (SPEC.md section 2). */
export const EXAM_TABLE_WIDTH = 1190;

/**
 * Rows per page. A 2,000-file folder can hold hundreds of studies: drawing them all at once held
 * the page for over a second. Select all still covers every page.
 */
export const EXAM_ROWS_PER_PAGE = 50;

interface Props {
  studies: FoundStudy[];
  accountUuid: string | undefined;
  /** Studies an earlier page load began uploading here: selectable although the server has them. */
  partial: ReadonlySet<string>;
  existing: string[] | null;
  selected: string[];
  onExisting: (studyUids: string[]) => void;
  onToggle: (studyUid: string) => void;
  onToggleAll: () => void;
}

/** Step 3: the found studies; those already on the server are marked and cannot be selected. */
export function SelectExamsStep({
  studies,
  accountUuid,
  partial,
  existing,
  selected,
  onExisting,
  onToggle,
  onToggleAll,
}: Props) {
  const dates = useDateDisplay();
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const existingSet = useMemo(() => new Set(existing ?? []), [existing]);
  const selectedSet = useMemo(() => new Set(selected), [selected]);
  const exists = useExistingStudies(
    studies.map((s) => s.studyUid),
    accountUuid,
  );
  useEffect(() => {
    if (exists.data && existing === null) onExisting([...exists.data].filter((uid) => !partial.has(uid)));
  }, [exists.data, existing, onExisting, partial]);

  if (exists.isError) return <Alert severity="error">{t(MESSAGES.unexpectedError)}</Alert>;
  if (existing === null) return <CircularProgress aria-label={t('Checking exams')} />;
  const selectable = studies.filter((s) => !existingSet.has(s.studyUid)).length;
  const pages = Math.max(1, Math.ceil(studies.length / EXAM_ROWS_PER_PAGE));
  const shownPage = Math.min(page, pages - 1);
  const shown = studies.slice(shownPage * EXAM_ROWS_PER_PAGE, (shownPage + 1) * EXAM_ROWS_PER_PAGE);
  return (
    <Box sx={{ minWidth: 0 }}>
      {studies.length > 1 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t(MESSAGES.uploadMultiStudyMrn)}
        </Alert>
      )}
      <ScrollTable label={t('Exams found')}>
        <Table size="small" stickyHeader sx={{ width: EXAM_TABLE_WIDTH }} aria-label={t('Exams found')}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selectable > 0 && selected.length === selectable}
                  indeterminate={selected.length > 0 && selected.length < selectable}
                  disabled={selectable === 0}
                  onChange={onToggleAll}
                  slotProps={{ input: { 'aria-label': t('Select all exams') } }}
                />
              </TableCell>
              <TableCell>{t('Status')}</TableCell>
              <TableCell>{t('Patient name')}</TableCell>
              <TableCell>{t('MRN')}</TableCell>
              <TableCell>{t('Study date')}</TableCell>
              {/* Modality before Description: at 1280 px the frame shows the columns a user checks
                  (who, when, what kind) and the long description scrolls out of view instead. */}
              <TableCell>{t('Modality')}</TableCell>
              <TableCell>{t('Description')}</TableCell>
              <TableCell align="right">{t('Files')}</TableCell>
              <TableCell align="right">{t('Size')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((s) => {
              const isExisting = existingSet.has(s.studyUid);
              const isSelected = selectedSet.has(s.studyUid);
              const name = formatPatientName(s.patientName);
              return (
                <TableRow key={s.studyUid} hover={!isExisting} selected={isSelected}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={isSelected}
                      disabled={isExisting}
                      onChange={() => onToggle(s.studyUid)}
                      slotProps={{ input: { 'aria-label': t('Select exam of {{name}}', { name }) } }}
                    />
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={isExisting ? 'default' : partial.has(s.studyUid) ? 'warning' : 'success'}
                      label={
                        isExisting
                          ? t('Already uploaded')
                          : partial.has(s.studyUid)
                            ? t('Partly uploaded')
                            : t('New')
                      }
                    />
                  </TableCell>
                  <TableCell>{name}</TableCell>
                  <TableCell>{s.patientId}</TableCell>
                  <TableCell>{dates.day(s.studyDate)}</TableCell>
                  <TableCell>{s.modalities.join(', ')}</TableCell>
                  <TableCell>{s.description}</TableCell>
                  <TableCell align="right">{s.fileIndexes.length}</TableCell>
                  <TableCell align="right">{formatMegabytes(s.totalSize)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </ScrollTable>
      {pages > 1 && (
        <TablePagination
          component="div"
          count={studies.length}
          page={shownPage}
          onPageChange={(_e, next) => setPage(next)}
          rowsPerPage={EXAM_ROWS_PER_PAGE}
          rowsPerPageOptions={[EXAM_ROWS_PER_PAGE]}
          sx={{ maxWidth: EXAM_TABLE_WIDTH }}
        />
      )}
    </Box>
  );
}
