import { memo } from 'react';
import { ButtonBase, Card, Checkbox } from '@mui/material';
import Star from '@mui/icons-material/Star';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes, formatModalities, formatPatientName } from '../../../lib/format';
import { useDateDisplay } from '../../../lib/date-preferences';
import { StudyStatusIcons } from './StudyStatusIcons';

interface StudyCardProps {
  study: Study;
  active: boolean;
  /** undefined when the group has no multi-select. */
  checked?: boolean;
  onOpen: (study: Study) => void;
  onCheck?: (study: Study, checked: boolean) => void;
}

// One style sheet for every card: the inner parts are plain elements, so a page of 50 cards stays
// cheap to render (a styled component per field would multiply the work).
const cardSx = {
  display: 'flex',
  alignItems: 'stretch',
  '&.active': { borderColor: 'primary.main', bgcolor: 'action.selected' },
  '& .body': { flex: 1, textAlign: 'left', p: 1.5, minWidth: 0, cursor: 'pointer' },
  // The patient's name is the card's button: its accessible name ("Open NAME") holds its visible
  // text, and the rest of the card reads as text. A click anywhere on the card opens it too.
  '& .open': { font: 'inherit', color: 'inherit', textAlign: 'left', maxWidth: '100%' },
  '& .open > span': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& .row': { display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', columnGap: 2 },
  '& h3': { m: 0, typography: 'subtitle1', fontWeight: 600, minWidth: 0, display: 'flex' },
  '& .title': { flexWrap: 'nowrap', columnGap: 1 },
  '& .spacer': { flex: 1 },
  '& .meta': { typography: 'body2', color: 'text.secondary', mt: 0.5 },
  '& .meta b': { fontWeight: 400, color: 'text.primary' },
  '& .desc': {
    typography: 'body2',
    mt: 0.5,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  '& .foot': { typography: 'caption', color: 'text.secondary', mt: 0.5 },
  '& .modality, & .tag': { typography: 'caption', borderRadius: 4, px: 1, py: 0.25, lineHeight: 1.6 },
  '& .modality': { bgcolor: 'action.selected', color: 'text.primary' },
  '& .tag': { border: 1, borderColor: 'divider', color: 'text.primary' },
} as const;

/** One study: patient, MRN, birth date, sex, modality, description, date, images, size, tags, star. */
export const StudyCard = memo(function StudyCard({
  study,
  active,
  checked,
  onOpen,
  onCheck,
}: StudyCardProps) {
  const dates = useDateDisplay();
  const { t } = useTranslation();
  const name = formatPatientName(study.patient_name) || t('Unknown patient');
  const field = (label: string, value: string) => (
    <span>
      {t(label)}: <b>{value || '—'}</b>
    </span>
  );
  return (
    <Card variant="outlined" data-testid="study-card" className={active ? 'active' : undefined} sx={cardSx}>
      {checked !== undefined && onCheck && (
        <Checkbox
          checked={checked}
          onChange={(e) => onCheck(study, e.target.checked)}
          slotProps={{ input: { 'aria-label': t('Select {{name}}', { name }) } }}
          sx={{ alignSelf: 'center' }}
        />
      )}
      {/* Mouse users click anywhere on the card; keyboard users reach its one button, the name. */}
      <div className="body" onClick={() => onOpen(study)}>
        <div className="row title">
          <h3>
            <ButtonBase className="open" aria-pressed={active} aria-label={t('Open {{name}}', { name })}>
              <span>{name}</span>
            </ButtonBase>
          </h3>
          {study.star === 1 && (
            <Star fontSize="small" sx={{ color: 'warning.main' }} aria-label={t('Starred')} />
          )}
          <StudyStatusIcons study={study} />
          <span className="spacer" />
          <span className="modality" data-testid="study-modality">
            {formatModalities(study.modality) || '—'}
          </span>
        </div>
        <div className="row meta">
          {field('MRN', study.patientid)}
          {field('DOB', dates.day(study.patient_birth_date))}
          {field('Sex', study.patient_sex)}
          {field('Study date', dates.day(study.study_date))}
        </div>
        <div className="desc">{study.study_description || t('No description')}</div>
        <div className="row foot">
          <span>
            {t('{{count}} images', { count: study.image_count })} · {formatMegabytes(study.size)}
          </span>
          {study.tags.map((tag) => (
            <span key={tag} className="tag" data-testid="study-tag">
              {tag}
            </span>
          ))}
        </div>
      </div>
    </Card>
  );
});
