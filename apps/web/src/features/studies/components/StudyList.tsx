import { Box, LinearProgress, Stack, Typography } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { StudyCard } from './StudyCard';

interface Props {
  studies: Study[] | undefined;
  loading: boolean;
  activeUuid: string | null;
  multiSelect: boolean;
  checked: ReadonlySet<string>;
  onOpen: (study: Study) => void;
  onCheck: (study: Study, checked: boolean) => void;
}

/** The cards of one page; the previous page stays visible under a progress bar while the next loads. */
export function StudyList({ studies, loading, activeUuid, multiSelect, checked, onOpen, onCheck }: Props) {
  const { t } = useTranslation();
  return (
    <Box sx={{ position: 'relative', flex: 1, minHeight: 0, overflowY: 'auto' }} aria-busy={loading}>
      <LinearProgress
        aria-label={t('Loading exams')}
        sx={{ position: 'sticky', top: 0, zIndex: 1, visibility: loading ? 'visible' : 'hidden' }}
      />
      {studies && studies.length === 0 && !loading && (
        <Typography sx={{ p: 4, textAlign: 'center' }} color="text.secondary" role="status">
          {t(MESSAGES.noResults)}
        </Typography>
      )}
      <Stack
        component="ul"
        spacing={1}
        sx={{ listStyle: 'none', m: 0, px: 2, pb: 2 }}
        aria-label={t('Exams')}
      >
        {studies?.map((study) => (
          <li key={study.uuid}>
            <StudyCard
              study={study}
              active={study.uuid === activeUuid}
              checked={multiSelect ? checked.has(study.uuid) : undefined}
              onOpen={onOpen}
              onCheck={multiSelect ? onCheck : undefined}
            />
          </li>
        ))}
      </Stack>
    </Box>
  );
}
