import type { ReactNode } from 'react';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  AlertTitle,
  Box,
  Typography,
} from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes, formatModalities, formatPatientAge, formatPatientName } from '../../../lib/format';
import { useDateDisplay } from '../../../lib/date-preferences';
import { ExamHistory } from './ExamHistory';
import { StudyMarks } from './StudyMarks';
import { SeriesThumbnails } from './SeriesThumbnails';

function Rows({ rows }: { rows: [string, string | number | null | undefined][] }) {
  const { t } = useTranslation();
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t(label)}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value === null || value === undefined || value === '' ? '—' : value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function Section({ title, children, open }: { title: string; children: ReactNode; open?: boolean }) {
  const { t } = useTranslation();
  // A closed section renders nothing, so the history is only fetched when someone opens it.
  return (
    <Accordion
      defaultExpanded={open}
      disableGutters
      variant="outlined"
      slotProps={{ transition: { unmountOnExit: true } }}
    >
      <AccordionSummary expandIcon={<ExpandMore />}>
        <Typography sx={{ fontWeight: 500 }}>{t(title)}</Typography>
      </AccordionSummary>
      <AccordionDetails>{children}</AccordionDetails>
    </Accordion>
  );
}

/** Summary tab: the sharer's message, patient demographics, exam information and exam history. */
export function StudySummary({ study }: { study: Study }) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      {study.share_message && (
        // A shared or sent copy carries the message its sender wrote (SPEC: "with the message").
        <Alert severity="info" aria-label={t('Share message')}>
          <AlertTitle>{t('Message from the sender')}</AlertTitle>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {study.share_message}
          </Typography>
        </Alert>
      )}
      {study.lock && (
        // Whoever holds the lock is editing; others can edit again once it is released or lapses.
        <Alert severity="warning" aria-label={t('Exam lock')}>
          {t('Being edited by {{name}} since {{since}} (the lock lapses at {{expires}} unless renewed).', {
            name: study.lock.user_name,
            since: dates.timestamp(study.lock.since),
            expires: dates.timestamp(study.lock.expires),
          })}
        </Alert>
      )}
      <StudyMarks study={study} />
      <Section title="Patient demographics" open>
        <Rows
          rows={[
            ['Patient name', formatPatientName(study.patient_name)],
            ['MRN', study.patientid],
            ['Date of birth', dates.day(study.patient_birth_date)],
            ['Age', formatPatientAge(study.patient_age)],
            ['Sex', study.patient_sex],
          ]}
        />
      </Section>
      <Section title="Exam information" open>
        <Rows
          rows={[
            ['Accession number', study.accession_number],
            ['Study description', study.study_description],
            ['Study date', dates.day(study.study_date)],
            ['Modality', formatModalities(study.modality)],
            ['Referring physician', formatPatientName(study.referring_physician)],
            ['Images', study.image_count],
            ['Series', study.series_count],
            ['Size', formatMegabytes(study.size)],
            ['Source title', study.source_ae_title],
            ['Destination title', study.destination_ae_title],
            ['Group', study.phi_namespace_name],
            ['Uploaded', dates.timestamp(study.created)],
            ['Tags', study.tags.join(', ')],
            ['Study UID', study.study_uid],
          ]}
        />
      </Section>
      <Section title="Series" open>
        <SeriesThumbnails uuid={study.uuid} />
      </Section>
      <Section title="Exam history">
        <ExamHistory uuid={study.uuid} />
      </Section>
    </Box>
  );
}
