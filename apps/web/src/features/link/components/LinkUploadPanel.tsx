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
import { linkErrorCode } from '../api/link-public';
import { linkErrorMessage } from '../lib/link-messages';
import { isUploadCandidate } from '../../../lib/run-queue';
import { runJobs } from '../../../lib/job-queue';
import { isRetryableUpload } from '../../upload/api/upload-image';
import { linkUploadApi } from '../../upload/api/upload-session';
import { browserResumeStore } from '../../upload/lib/resume-store';
import { sendResumable } from '../../upload/lib/resumable-send';
import { UPLOAD_BACKOFF_MS, UPLOAD_CONCURRENCY, UPLOAD_RETRIES } from '../../upload/lib/upload-runner';

interface Failure {
  file: File;
  name: string;
  code: string;
}

/**
 * Picks DICOM files or a whole folder and sends them to the link's group, three at a time with
 * retries; large files go in chunks and resume after a drop or a reload of the page (same grant,
 * same folder picked again). `grant` opens the upload session on first use (one hit of the link).
 */
export function LinkUploadPanel({ grant, scope }: { grant: () => Promise<string>; scope: string }) {
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

  /** Sends `list`; a retry sends only the failed files and keeps the counts of the others. */
  const upload = async (list: File[], retry: boolean) => {
    setState('running');
    setFatal(null);
    setFailures([]);
    if (!retry) setDone({ files: 0, bytes: 0 });
    let key: string;
    try {
      key = await grant();
    } catch (error) {
      setFatal(linkErrorCode(error));
      setState('idle');
      return;
    }
    const api = linkUploadApi(key);
    const store = browserResumeStore();
    const held = new Map<File, number>();
    const hold = (file: File, bytes: number) => {
      const before = held.get(file) ?? 0;
      if (bytes <= before) return;
      held.set(file, bytes);
      setDone((d) => ({ ...d, bytes: d.bytes + bytes - before }));
    };
    await runJobs(
      list,
      {
        concurrency: UPLOAD_CONCURRENCY,
        retries: UPLOAD_RETRIES,
        backoffMs: UPLOAD_BACKOFF_MS,
        retryable: isRetryableUpload,
        onSettled: (outcome) => {
          const file = outcome.item;
          if (outcome.ok) {
            hold(file, file.size);
            setDone((d) => ({ ...d, files: d.files + 1 }));
          } else {
            const failure = {
              file,
              name: file.webkitRelativePath || file.name,
              code: linkErrorCode(outcome.error),
            };
            setFailures((all) => [...all, failure]);
          }
        },
      },
      (file, signal) => sendResumable({ file }, { api, store, scope, signal, onHeld: (n) => hold(file, n) }),
    );
    setState('finished');
  };

  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  const percent = totalBytes ? Math.min(100, Math.round((done.bytes / totalBytes) * 100)) : 0;
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
        onClick={() => void upload(files, false)}
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
        <Alert
          severity="error"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() =>
                void upload(
                  failures.map((f) => f.file),
                  true,
                )
              }
            >
              {t('Retry failed files')}
            </Button>
          }
        >
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
