import { useEffect } from 'react';
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
  TableRow,
} from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { formatMegabytes, formatPatientName } from '../../../lib/format';
import { useDateDisplay } from '../../../lib/date-preferences';
import { useExistingStudies } from '../api/study-exists';
import type { FoundStudy } from '../lib/studies';

/** The patient table is 1190 px wide (SPEC.md section 2). */
export const EXAM_TABLE_WIDTH = 1190;

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
  const exists = useExistingStudies(
    studies.map((s) => s.studyUid),
    accountUuid,
  );
  useEffect(() => {
    if (exists.data && existing === null) onExisting([...exists.data].filter((uid) => !partial.has(uid)));
  }, [exists.data, existing, onExisting, partial]);

  if (exists.isError) return <Alert severity="error">{t(MESSAGES.unexpectedError)}</Alert>;
  if (existing === null) return <CircularProgress aria-label={t('Checking exams')} />;
  const selectable = studies.filter((s) => !existing.includes(s.studyUid)).length;
  return (
    <Box>
      {studies.length > 1 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t(MESSAGES.uploadMultiStudyMrn)}
        </Alert>
      )}
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" sx={{ width: EXAM_TABLE_WIDTH }} aria-label={t('Exams found')}>
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
              <TableCell>{t('Description')}</TableCell>
              <TableCell>{t('Modality')}</TableCell>
              <TableCell align="right">{t('Files')}</TableCell>
              <TableCell align="right">{t('Size')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {studies.map((s) => {
              const isExisting = existing.includes(s.studyUid);
              const name = formatPatientName(s.patientName);
              return (
                <TableRow key={s.studyUid} hover={!isExisting} selected={selected.includes(s.studyUid)}>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.includes(s.studyUid)}
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
                  <TableCell>{s.description}</TableCell>
                  <TableCell>{s.modalities.join(', ')}</TableCell>
                  <TableCell align="right">{s.fileIndexes.length}</TableCell>
                  <TableCell align="right">{formatMegabytes(s.totalSize)}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
