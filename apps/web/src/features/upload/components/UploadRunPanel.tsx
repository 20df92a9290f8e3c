import { memo, useState } from 'react';
import {
  Alert,
  Button,
  Chip,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatPatientName } from '../../../lib/format';
import { uploadProgress } from '../lib/progress';
import { studyOutcome, type RunStudy, type UploadRun } from '../lib/upload-store';
import { cancelUpload, retryFailedFiles } from '../upload-runtime';

/**
 * Rows of the studies table per page, and failed files listed by name. A 2,000-file folder holds
 * hundreds of studies: a page of them (and a bounded list) keeps each repaint small.
 */
export const STUDY_ROWS_PER_PAGE = 50;
export const FAILURES_LISTED = 100;

/** The running or last upload: progress and Cancel, then each study New or Duplicate and the failed files. */
export function UploadRunPanel({ run }: { run: UploadRun }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const running = run.status === 'uploading';
  const p = uploadProgress(run.uploadedBytes, run.totalBytes);
  const pages = Math.max(1, Math.ceil(run.studies.length / STUDY_ROWS_PER_PAGE));
  const shownPage = Math.min(page, pages - 1);
  const shown = run.studies.slice(shownPage * STUDY_ROWS_PER_PAGE, (shownPage + 1) * STUDY_ROWS_PER_PAGE);
  return (
    <Stack
      spacing={2}
      sx={{ mb: 3 }}
      aria-label={t('Upload to {{name}}', { name: run.destinationName })}
      component="section"
    >
      {running ? (
        <Stack spacing={0.5}>
          <Typography>{t('Uploading to {{name}}', { name: run.destinationName })}</Typography>
          <LinearProgress variant="determinate" value={p.percent} aria-label={t('Upload progress')} />
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            {/* A live region: screen readers read the progress as it moves. */}
            <Typography variant="body2" role="status">
              {t('{{uploaded}} MB of {{total}} MB ({{percent}}%)', {
                uploaded: p.uploadedMb,
                total: p.totalMb,
                percent: p.percent,
              })}
            </Typography>
            <Typography variant="body2">
              {t('{{answered}} of {{files}} files', { answered: run.answered, files: run.fileCount })}
            </Typography>
            <Button size="small" color="error" onClick={cancelUpload}>
              {t('Cancel upload')}
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Alert severity={run.status === 'succeeded' ? 'success' : 'error'}>
          {t(run.status === 'succeeded' ? MESSAGES.uploadDone : MESSAGES.uploadFailed)}
          {run.error && (
            <Typography variant="body2" component="span" sx={{ ml: 1 }} data-testid="upload-run-error">
              ({run.error})
            </Typography>
          )}
        </Alert>
      )}
      <Table size="small" aria-label={t('Uploaded exams')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('Patient name')}</TableCell>
            <TableCell>{t('MRN')}</TableCell>
            <TableCell>{t('Description')}</TableCell>
            <TableCell align="right">{t('Files')}</TableCell>
            <TableCell>{t('Result')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.map((s) => (
            <StudyRow key={s.studyUid} study={s} running={running} />
          ))}
        </TableBody>
      </Table>
      {pages > 1 && (
        <TablePagination
          component="div"
          count={run.studies.length}
          page={shownPage}
          onPageChange={(_e, next) => setPage(next)}
          rowsPerPage={STUDY_ROWS_PER_PAGE}
          rowsPerPageOptions={[STUDY_ROWS_PER_PAGE]}
        />
      )}
      {!running && run.failures.length > 0 && (
        <Stack spacing={1}>
          <List dense aria-label={t('Failed files')} sx={{ maxHeight: 240, overflowY: 'auto' }}>
            {run.failures.slice(0, FAILURES_LISTED).map((f, i) => (
              <ListItem key={`${i}:${f.name}`} disableGutters>
                <ListItemText primary={f.name} secondary={f.code} />
              </ListItem>
            ))}
          </List>
          {run.failures.length > FAILURES_LISTED && (
            <Typography variant="body2">
              {t('and {{count}} more failed files', { count: run.failures.length - FAILURES_LISTED })}
            </Typography>
          )}
          <Button variant="outlined" onClick={retryFailedFiles} sx={{ alignSelf: 'flex-start' }}>
            {t('Retry failed files')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

/** One study's row; the run keeps a study's record while it does not change, so most rows skip a repaint. */
const StudyRow = memo(function StudyRow({ study: s, running }: { study: RunStudy; running: boolean }) {
  const { t } = useTranslation();
  const outcome = studyOutcome(s);
  return (
    <TableRow>
      <TableCell>{formatPatientName(s.patientName)}</TableCell>
      <TableCell>{s.patientId}</TableCell>
      <TableCell>{s.description}</TableCell>
      <TableCell align="right">
        {s.stored + s.duplicates} / {s.fileCount}
      </TableCell>
      <TableCell>
        {running && s.stored + s.duplicates + s.failed < s.fileCount ? (
          t('Uploading')
        ) : (
          <Chip
            size="small"
            label={t(outcome)}
            color={outcome === 'New' ? 'success' : outcome === 'Duplicate' ? 'default' : 'error'}
          />
        )}
      </TableCell>
    </TableRow>
  );
});
