import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { useDateDisplay } from '../../../lib/date-preferences';
import { formatPatientName } from '../../../lib/format';
import type { FoundStudy } from '../lib/studies';

/** Rows drawn at most; a folder of hundreds of studies is summed up in the line above the table. */
const SHOWN = 50;

/**
 * The studies a scan found, read-only: who, when, what and how many files (the request-link page,
 * where the outside party checks what will be sent before sending it all).
 */
export function FoundStudiesTable({ studies }: { studies: FoundStudy[] }) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  return (
    <Table size="small" aria-label={t('Exams found')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('Patient name')}</TableCell>
          <TableCell>{t('Study date')}</TableCell>
          <TableCell>{t('Modality')}</TableCell>
          <TableCell align="right">{t('Files')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {studies.slice(0, SHOWN).map((s) => (
          <TableRow key={s.studyUid}>
            <TableCell>{formatPatientName(s.patientName)}</TableCell>
            <TableCell>{dates.day(s.studyDate)}</TableCell>
            <TableCell>{s.modalities.join(', ')}</TableCell>
            <TableCell align="right">{s.fileIndexes.length}</TableCell>
          </TableRow>
        ))}
        {studies.length > SHOWN && (
          <TableRow>
            <TableCell colSpan={4}>{t('and {{count}} more', { count: studies.length - SHOWN })}</TableCell>
          </TableRow>
        )}
      </TableBody>
    </Table>
  );
}
