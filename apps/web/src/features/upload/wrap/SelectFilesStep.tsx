import { useEffect, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Button,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import { MESSAGES, WRAP_ACCEPT } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes } from '../../../lib/format';
import { MediaProblemList } from '../components/MediaProblemList';
import { fileProblem } from '../lib/document-files';
import type { MediaProblem } from '../lib/media-scan';
import { pickedFiles } from '../lib/scan-files';
import { useMediaScan } from '../lib/use-media-scan';

type FileError = 'wrapFileTypes' | 'wrapFileTooLarge' | null;

/** The documents of `files` that can be sent, and why one was left out (the first reason found). */
function takeDocuments(files: readonly File[]): { accepted: File[]; error: FileError } {
  const problems = files.map(fileProblem);
  return {
    accepted: files.filter((_, i) => problems[i] === null),
    error: problems.find((p) => p !== null) ?? null,
  };
}

const isZip = (file: File) =>
  /\.zip$/i.test(file.name) ||
  file.type === 'application/zip' ||
  file.type === 'application/x-zip-compressed';

interface Props {
  files: File[];
  error: FileError;
  /** Files to add to the list (the list may have changed since they were picked: a ZIP takes time). */
  onAdded: (files: File[], error: FileError) => void;
  onRemove: (index: number) => void;
  /** Whether a ZIP is being read: the wizard holds its steps until its documents are in the list. */
  onReading: (reading: boolean) => void;
}

/**
 * Select Exams of the non-DICOM upload: PDF, JPEG, PNG and MP4 (H.264) files, picked as such or
 * inside a ZIP. A ZIP is opened by the media scan the DICOM upload and the request-link page use,
 * and its documents join the list as the link page offers them; anything else in it is left out
 * and said, as a loose file of another kind is.
 */
export function SelectFilesStep({ files, error, onAdded, onRemove, onReading }: Props) {
  const { t } = useTranslation();
  const [problems, setProblems] = useState<MediaProblem[]>([]);
  const { progress, load } = useMediaScan((found) => {
    setProblems(found.problems);
    const { accepted, error: documentError } = takeDocuments(found.documents);
    const leftOut = found.files.length > 0 || found.otherFiles > 0 || found.documents.length === 0;
    onAdded(accepted, documentError ?? (leftOut ? 'wrapFileTypes' : null));
  });
  // Leaving the step stops the read (the scan's own cleanup): the wizard must not stay held then.
  const reading = progress !== null;
  useEffect(() => {
    onReading(reading);
    return () => onReading(false);
  }, [reading, onReading]);
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    const { accepted, error: looseError } = takeDocuments(picked.filter((f) => !isZip(f)));
    onAdded(accepted, looseError);
    const zips = picked.filter(isZip);
    if (zips.length > 0) void load(pickedFiles(zips));
  };
  return (
    <Stack spacing={2}>
      <Button variant="outlined" component="label" sx={{ alignSelf: 'flex-start' }}>
        {t('Choose files')}
        <input
          hidden
          type="file"
          multiple
          accept={`${WRAP_ACCEPT},.zip,application/zip`}
          aria-label={t('PDF, image or video files')}
          onChange={pick}
        />
      </Button>
      {progress && (
        <Stack spacing={0.5}>
          <LinearProgress aria-label={t('Reading files')} />
          <Typography variant="body2" role="status">
            {t('Reading the ZIP: its files join the list when it is read, then Next opens.')}
          </Typography>
        </Stack>
      )}
      {error && <Alert severity="error">{t(MESSAGES[error])}</Alert>}
      <MediaProblemList problems={problems} />
      {files.length > 0 && (
        <List dense aria-label={t('Files to upload')}>
          {files.map((f, i) => (
            <ListItem
              key={`${i}:${f.name}`}
              disableGutters
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t('Remove {{name}}', { name: f.name })}
                  onClick={() => onRemove(i)}
                >
                  ×
                </IconButton>
              }
            >
              <ListItemText primary={f.name} secondary={formatMegabytes(f.size)} />
            </ListItem>
          ))}
        </List>
      )}
    </Stack>
  );
}
