import { useState } from 'react';
import { Box, Chip, IconButton, TextField, Tooltip } from '@mui/material';
import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import type { Study } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { useStarStudy } from '../api/study-star';
import { useAddTag } from '../api/tag-add';
import { useDeleteTag } from '../api/tag-delete';
import { normaliseTag } from '../lib/exam-actions';

/** Star toggle and tag chips of one study; a tag is added on Enter (SPEC.md section 5). */
export function StudyMarks({ study }: { study: Study }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [draft, setDraft] = useState('');
  const star = useStarStudy();
  const addTag = useAddTag();
  const deleteTag = useDeleteTag();
  const canStar = study.permissions.study_star === 1;
  const canTag = study.permissions.study_tag === 1;
  const failed = () => enqueueSnackbar(t('The change was not saved'), { variant: 'error' });

  const add = () => {
    const tag = normaliseTag(draft, study.tags);
    setDraft('');
    if (tag) addTag.mutate({ uuid: study.uuid, tag }, { onError: failed });
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}>
        <Tooltip title={study.star === 1 ? t('Unstar') : t('Star')}>
          <span>
            <IconButton
              aria-label={t('Star exam')}
              aria-pressed={study.star === 1}
              disabled={!canStar}
              onClick={() =>
                star.mutate({ uuid: study.uuid, star: study.star === 1 ? 0 : 1 }, { onError: failed })
              }
            >
              {study.star === 1 ? <Star sx={{ color: 'warning.main' }} /> : <StarBorder />}
            </IconButton>
          </span>
        </Tooltip>
        <Box component="ul" aria-label={t('Tags')} sx={{ display: 'contents', listStyle: 'none' }}>
          {study.tags.map((tag) => (
            <li key={tag} style={{ display: 'inline-flex' }}>
              <Chip
                size="small"
                label={tag}
                onDelete={
                  canTag ? () => deleteTag.mutate({ uuid: study.uuid, tag }, { onError: failed }) : undefined
                }
              />
            </li>
          ))}
        </Box>
      </Box>
      {canTag && (
        <TextField
          size="small"
          label={t('Add tag')}
          value={draft}
          slotProps={{ htmlInput: { maxLength: 64 } }}
          helperText={t('Press Enter to add')}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
      )}
    </Box>
  );
}
