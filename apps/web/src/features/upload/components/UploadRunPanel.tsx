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
  TableRow,
  Typography,
} from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { formatPatientName } from '../../../lib/format';
import { uploadProgress } from '../lib/progress';
import { studyOutcome, type UploadRun } from '../lib/upload-store';
import { cancelUpload, retryFailedFiles } from '../upload-runtime';

/** The running or last upload: progress and Cancel, then each study New or Duplicate and the failed files. */
export function UploadRunPanel({ run }: { run: UploadRun }) {
  const { t } = useTranslation();
  const running = run.status === 'uploading';
  const p = uploadProgress(run.uploadedBytes, run.totalBytes);
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
            <Typography variant="body2">
              {t('{{uploaded}} MB of {{total}} MB ({{percent}}%)', {
                uploaded: p.uploadedMb,
                total: p.totalMb,
                percent: p.percent,
              })}
            </Typography>
            <Button size="small" color="error" onClick={cancelUpload}>
              {t('Cancel upload')}
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Alert severity={run.status === 'succeeded' ? 'success' : 'error'}>
          {t(run.status === 'succeeded' ? MESSAGES.uploadDone : MESSAGES.uploadFailed)}
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
          {run.studies.map((s) => {
            const outcome = studyOutcome(s);
            return (
              <TableRow key={s.studyUid}>
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
          })}
        </TableBody>
      </Table>
      {!running && run.failures.length > 0 && (
        <Stack spacing={1}>
          <List dense aria-label={t('Failed files')} sx={{ maxHeight: 240, overflowY: 'auto' }}>
            {run.failures.map((f, i) => (
              <ListItem key={`${i}:${f.name}`} disableGutters>
                <ListItemText primary={f.name} secondary={f.code} />
              </ListItem>
            ))}
          </List>
          <Button variant="outlined" onClick={retryFailedFiles} sx={{ alignSelf: 'flex-start' }}>
            {t('Retry failed files')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
