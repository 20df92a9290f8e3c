import { useEffect, useMemo, useState } from 'react';
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
import { useTranslation } from '../../../lib/i18n';
import { linkErrorCode } from '../api/link-public';
import { offeredDocuments } from '../lib/link-documents';
import { linkErrorMessage } from '../lib/link-messages';
import { LinkDocumentsForm } from './LinkDocumentsForm';
import {
  MediaPicker,
  ScanSummary,
  instancesOf,
  linkUploadApi,
  onResumeUnavailable,
  sendFiles,
  useMediaScan,
  type MediaScanOutcome,
  type PickedFile,
  type ResumableFile,
} from '../../upload';

interface Failure {
  item: ResumableFile;
  name: string;
  code: string;
}

/**
 * Takes media as the upload wizard does (files, a folder, a ZIP, ZIPs inside it, a CD with its
 * DICOMDIR, dropped or picked), shows the studies found and what could not be taken, and sends
 * every instance found to the link's group, three at a time with retries; large files go in chunks
 * and resume after a drop or a reload of the page (same grant, same media picked again). `grant`
 * opens the upload session on first use (one hit of the link). PDF, JPEG, PNG and MP4 files, picked
 * or inside a ZIP, are documents: where the group accepts them they go with a patient and exam form
 * (LinkDocumentsForm), beside the DICOM found in the same pick.
 */
export function LinkUploadPanel({
  grant,
  scope,
  acceptsDocuments,
}: {
  grant: () => Promise<string>;
  scope: string;
  acceptsDocuments: boolean;
}) {
  const { t } = useTranslation();
  const [found, setFound] = useState<MediaScanOutcome | null>(null);
  const [done, setDone] = useState({ files: 0, bytes: 0 });
  const [failures, setFailures] = useState<Failure[]>([]);
  const [state, setState] = useState<'idle' | 'running' | 'finished'>('idle');
  const [fatal, setFatal] = useState<string | null>(null);
  // Said, not failed silently: without IndexedDB an interrupted upload starts over.
  const [noResume, setNoResume] = useState(false);
  useEffect(() => onResumeUnavailable(() => setNoResume(true)), []);
  // Renews the documents form for each scan: its details belong to the documents of one pick.
  const [scans, setScans] = useState(0);
  const { progress, load, failed } = useMediaScan((outcome) => {
    setFound(outcome);
    setScans((n) => n + 1);
    setState('idle');
    setFailures([]);
    setDone({ files: 0, bytes: 0 });
  });
  const picked = (selection: PickedFile[]) => void load(selection);
  const items = useMemo(() => (found ? instancesOf(found.studies, found.files) : []), [found]);
  const documents = useMemo(
    () => offeredDocuments(acceptsDocuments ? (found?.documents ?? []) : []),
    [found, acceptsDocuments],
  );
  const foundDocuments = acceptsDocuments ? (found?.documents.length ?? 0) : 0;
  const otherFiles = found ? found.otherFiles + (found.documents.length - foundDocuments) : 0;

  /** Sends `list`; a retry sends only the failed files and keeps the counts of the others. */
  const upload = async (list: ResumableFile[], retry: boolean) => {
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
    const held = new Map<File, number>();
    const hold = (file: File, bytes: number) => {
      const before = held.get(file) ?? 0;
      if (bytes <= before) return;
      held.set(file, bytes);
      setDone((d) => ({ ...d, bytes: d.bytes + bytes - before }));
    };
    await sendFiles(list, {
      api: linkUploadApi(key),
      scope,
      onHeld: hold,
      onSettled: (outcome) => {
        const { file } = outcome.item;
        if (outcome.ok) {
          hold(file, file.size);
          setDone((d) => ({ ...d, files: d.files + 1 }));
        } else {
          const failure = {
            item: outcome.item,
            // A ZIP entry's File is named by its path in the selection (exams.zip/CT/IMG1).
            name: file.webkitRelativePath || file.name,
            code: linkErrorCode(outcome.error),
          };
          setFailures((all) => [...all, failure]);
        }
      },
    });
    setState('finished');
  };

  const scanning = progress !== null;
  const running = state === 'running';
  const totalBytes = items.reduce((n, i) => n + i.file.size, 0);
  const percent = totalBytes ? Math.min(100, Math.round((done.bytes / totalBytes) * 100)) : 0;
  const studies = found?.studies ?? [];

  return (
    <Stack spacing={2}>
      {fatal && <Alert severity="error">{t(linkErrorMessage(fatal))}</Alert>}
      {noResume && <Alert severity="info">{t(MESSAGES.uploadResumeUnavailable)}</Alert>}
      <MediaPicker progress={progress} disabled={running} onPicked={picked} onUnreadable={failed} />
      {acceptsDocuments ? (
        <Typography variant="body2" color="text.secondary">
          {t('PDF, JPEG, PNG and MP4 files can be sent too: they need the patient and exam details.')}
        </Typography>
      ) : (
        <Alert severity="info">{t(MESSAGES.linkDocumentsNotAccepted)}</Alert>
      )}
      {!scanning && found && (
        // Where documents are taken, a pick of documents alone is no 'no DICOM found' mistake.
        <ScanSummary
          error={foundDocuments === 0 ? found.error : null}
          problems={found.problems}
          studies={studies}
          table
        >
          {otherFiles > 0 && (
            <Alert severity="info">
              {t('{{count}} other files are not sent: not DICOM, or not listed in the DICOMDIR', {
                count: otherFiles,
              })}
            </Alert>
          )}
        </ScanSummary>
      )}
      <Button
        variant="contained"
        disabled={!items.length || running || scanning}
        loading={running}
        onClick={() => void upload(items, false)}
      >
        {t('Upload')}
      </Button>
      {state !== 'idle' && (
        <Stack spacing={0.5}>
          <LinearProgress variant="determinate" value={percent} aria-label={t('Upload progress')} />
          <Typography variant="body2" role="status">
            {t('{{done}} of {{total}} files, {{mb}} of {{totalMb}} MB ({{percent}}%)', {
              done: done.files,
              total: items.length,
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
                  failures.map((f) => f.item),
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
      {!scanning && documents.problem && (
        <Alert severity="error">
          {t(documents.problem === 'tooMany' ? MESSAGES.linkDocumentsTooMany : MESSAGES.wrapFileTooLarge)}
        </Alert>
      )}
      {!scanning && documents.documents.length > 0 && (
        <LinkDocumentsForm key={scans} documents={documents.documents} grant={grant} />
      )}
    </Stack>
  );
}
