import { useRef, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Button,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { MEGABYTE, MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { linkErrorCode, uploadLinkFile } from '../api/link-public';
import { linkErrorMessage } from '../lib/link-messages';
import { isUploadCandidate, runQueue } from '../../../lib/run-queue';

/** Three files in flight: enough to keep the line busy without holding many files in memory. */
const CONCURRENCY = 3;

interface Failure {
  name: string;
  code: string;
}

/**
 * Picks DICOM files or a whole folder and sends them one by one to the link's group. `grant` opens
 * the upload session on first use (one hit of the link), so a second batch reuses it.
 */
export function LinkUploadPanel({ grant }: { grant: () => Promise<string> }) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [done, setDone] = useState({ files: 0, bytes: 0 });
  const [failures, setFailures] = useState<Failure[]>([]);
  const [state, setState] = useState<'idle' | 'running' | 'finished'>('idle');
  const [fatal, setFatal] = useState<string | null>(null);
  const folderInput = useRef<HTMLInputElement | null>(null);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    setFiles([...(event.target.files ?? [])].filter(isUploadCandidate));
    setState('idle');
    setFailures([]);
    setDone({ files: 0, bytes: 0 });
  };

  const upload = async () => {
    setState('running');
    setFatal(null);
    setFailures([]);
    setDone({ files: 0, bytes: 0 });
    let key: string;
    try {
      key = await grant();
    } catch (error) {
      setFatal(linkErrorCode(error));
      setState('idle');
      return;
    }
    await runQueue(files, CONCURRENCY, async (file) => {
      try {
        await uploadLinkFile(key, file);
      } catch (error) {
        setFailures((list) => [
          ...list,
          { name: file.webkitRelativePath || file.name, code: linkErrorCode(error) },
        ]);
      }
      setDone((d) => ({ files: d.files + 1, bytes: d.bytes + file.size }));
    });
    setState('finished');
  };

  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  const percent = files.length ? Math.round((done.files / files.length) * 100) : 0;
  const running = state === 'running';

  return (
    <Stack spacing={2}>
      {fatal && <Alert severity="error">{t(linkErrorMessage(fatal))}</Alert>}
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" component="label" disabled={running}>
          {t('Choose files')}
          <input hidden type="file" multiple aria-label={t('DICOM files')} onChange={pick} />
        </Button>
        <Button variant="outlined" component="label" disabled={running}>
          {t('Choose folder')}
          <input
            hidden
            type="file"
            multiple
            aria-label={t('DICOM folder')}
            onChange={pick}
            ref={(el) => {
              // React has no typed prop for the folder picker attribute.
              el?.setAttribute('webkitdirectory', '');
              folderInput.current = el;
            }}
          />
        </Button>
      </Stack>
      <Typography color="text.secondary">
        {t('{{count}} files selected ({{size}} MB)', {
          count: files.length,
          size: (totalBytes / MEGABYTE).toFixed(1),
        })}
      </Typography>
      <Button
        variant="contained"
        disabled={!files.length || running}
        loading={running}
        onClick={() => void upload()}
      >
        {t('Upload')}
      </Button>
      {state !== 'idle' && (
        <Stack spacing={0.5}>
          <LinearProgress variant="determinate" value={percent} aria-label={t('Upload progress')} />
          <Typography variant="body2" role="status">
            {t('{{done}} of {{total}} files, {{mb}} of {{totalMb}} MB ({{percent}}%)', {
              done: done.files,
              total: files.length,
              mb: (done.bytes / MEGABYTE).toFixed(1),
              totalMb: (totalBytes / MEGABYTE).toFixed(1),
              percent,
            })}
          </Typography>
        </Stack>
      )}
      {state === 'finished' && failures.length === 0 && (
        <Alert severity="success">{t(MESSAGES.linkUploadDone)}</Alert>
      )}
      {failures.length > 0 && !running && (
        <Alert severity="error">
          {t(MESSAGES.linkUploadFailed)}
          <List dense aria-label={t('Failed files')}>
            {failures.map((f) => (
              <ListItem key={f.name} disableGutters>
                <ListItemText primary={f.name} secondary={f.code} />
              </ListItem>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
