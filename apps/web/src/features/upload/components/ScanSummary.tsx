import type { ReactNode } from 'react';
import { Alert } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes } from '../../../lib/format';
import type { MediaProblem } from '../lib/media-scan';
import type { FoundStudy } from '../lib/studies';
import type { ScanErrorKey } from '../lib/wizard-state';
import { FoundStudiesTable } from './FoundStudiesTable';
import { MediaProblemList } from './MediaProblemList';

interface Props {
  /** Why nothing could be taken; the page leaves out what does not apply to it. */
  error: ScanErrorKey | null;
  problems: MediaProblem[];
  studies: FoundStudy[];
  /** Lists the studies too: where the page has no Select Exams step of its own. */
  table?: boolean;
  /** The page's own notes after the result (documents found, other files not sent). */
  children?: ReactNode;
}

/**
 * What a media scan found, under the picker: why nothing could be taken, the files it could not
 * take with why, then the exams found (files and size of their instances), then the page's notes.
 * The one block the upload wizard's Find Exams and the request-link page show; a page renders it
 * only once its scan has ended.
 */
export function ScanSummary({ error, problems, studies, table = false, children }: Props) {
  const { t } = useTranslation();
  const files = studies.reduce((n, s) => n + s.fileIndexes.length, 0);
  const size = studies.reduce((n, s) => n + s.totalSize, 0);
  return (
    <>
      {error && <Alert severity="error">{t(MESSAGES[error])}</Alert>}
      <MediaProblemList problems={problems} />
      {studies.length > 0 && (
        <Alert severity="success" role="status">
          {t('{{count}} exams found in {{files}} files ({{size}})', {
            count: studies.length,
            files,
            size: formatMegabytes(size),
          })}
        </Alert>
      )}
      {table && studies.length > 0 && <FoundStudiesTable studies={studies} />}
      {children}
    </>
  );
}
