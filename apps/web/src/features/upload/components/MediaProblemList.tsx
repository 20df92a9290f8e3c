import { Alert, AlertTitle, List, ListItem, ListItemText } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { MAX_ZIP_DEPTH, type MediaProblem, type MediaProblemReason } from '../lib/media-scan';

/** Shown per file; `{{path}}` is the file's path in the selection (inside a ZIP: zip/entry). */
const REASONS: Record<MediaProblemReason, string> = {
  encrypted: '{{path}}: encrypted (password-protected), it cannot be read',
  'unsupported-method': '{{path}}: compressed with a method the browser cannot read',
  'damaged-zip': '{{path}}: the ZIP archive or this entry is damaged',
  'split-zip': '{{path}}: a split ZIP archive (several parts) cannot be read',
  missing: '{{path}}: listed in the DICOMDIR but missing from the selected media',
  'zip-too-deep': '{{path}}: ZIPs nested more than {{depth}} deep are not opened',
  'zip-too-large': '{{path}}: a compressed ZIP inside a ZIP larger than 2 GB is not opened',
};

const SHOWN = 10;

/** The files of a selection the scan could not take, each with why; the rest are counted. */
export function MediaProblemList({ problems }: { problems: MediaProblem[] }) {
  const { t } = useTranslation();
  if (problems.length === 0) return null;
  return (
    <Alert severity="warning" aria-label={t('Files not taken')}>
      <AlertTitle>
        {t('{{count}} files of the selection cannot be uploaded', { count: problems.length })}
      </AlertTitle>
      <List dense disablePadding>
        {problems.slice(0, SHOWN).map((p) => (
          <ListItem key={`${p.reason}:${p.path}`} disableGutters>
            <ListItemText primary={t(REASONS[p.reason], { path: p.path, depth: MAX_ZIP_DEPTH })} />
          </ListItem>
        ))}
        {problems.length > SHOWN && (
          <ListItem disableGutters>
            <ListItemText primary={t('and {{count}} more', { count: problems.length - SHOWN })} />
          </ListItem>
        )}
      </List>
    </Alert>
  );
}
