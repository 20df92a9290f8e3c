import type { ChangeEvent } from 'react';
import { Alert, Button, IconButton, List, ListItem, ListItemText, Stack } from '@mui/material';
import { MESSAGES, WRAP_ACCEPT } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { formatMegabytes } from '../../../lib/format';
import { fileProblem } from '../lib/document-files';

interface Props {
  files: File[];
  error: 'wrapFileTypes' | 'wrapFileTooLarge' | null;
  onPicked: (files: File[], error: 'wrapFileTypes' | 'wrapFileTooLarge' | null) => void;
  onRemove: (index: number) => void;
}

/** Select Exams of the non-DICOM upload: PDF, JPEG, PNG and MP4 (H.264) files. */
export function SelectFilesStep({ files, error, onPicked, onRemove }: Props) {
  const { t } = useTranslation();
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    const problems = picked.map(fileProblem);
    const accepted = picked.filter((_, i) => problems[i] === null);
    onPicked([...files, ...accepted], problems.find((p) => p !== null) ?? null);
  };
  return (
    <Stack spacing={2}>
      <Button variant="outlined" component="label" sx={{ alignSelf: 'flex-start' }}>
        {t('Choose files')}
        <input
          hidden
          type="file"
          multiple
          accept={WRAP_ACCEPT}
          aria-label={t('PDF, image or video files')}
          onChange={pick}
        />
      </Button>
      {error && <Alert severity="error">{t(MESSAGES[error])}</Alert>}
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
