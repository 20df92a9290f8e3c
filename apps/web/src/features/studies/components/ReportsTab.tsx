import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { MAX_REPORT_TEXT, type Study, type StudyReport } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { useDateDisplay } from '../../../lib/date-preferences';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useAddReport, useStudyReports } from '../api/study-reports';

/**
 * Reports: the study's reports (structured reports and PDFs in the study, HL7 results for its
 * accession number), each with its status, author and time; holders of study_report_add add one
 * as text or as a PDF.
 */
export function ReportsTab({ study }: { study: Study }) {
  const { t } = useTranslation();
  const reports = useStudyReports(study.uuid);
  return (
    <Stack spacing={2}>
      {study.permissions.study_report_add === 1 && <AddReport studyUuid={study.uuid} />}
      {reports.isPending && <Loading />}
      {reports.isError && <UnexpectedErrorAlert />}
      {reports.data?.length === 0 && (
        <Typography color="text.secondary">{t('This exam has no report yet.')}</Typography>
      )}
      {reports.data && reports.data.length > 0 && (
        <List dense aria-label={t('Reports')} disablePadding>
          {reports.data.map((report) => (
            <ReportItem key={report.id} report={report} />
          ))}
        </List>
      )}
    </Stack>
  );
}

function ReportItem({ report }: { report: StudyReport }) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const when = report.time === null ? '' : dates.timestamp(new Date(report.time).toISOString());
  return (
    <ListItem disableGutters alignItems="flex-start" sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <ListItemText
        primary={
          <>
            {report.title || t('Report')}{' '}
            <Chip
              size="small"
              label={t(report.status)}
              color={report.status === 'Final' ? 'success' : 'default'}
              sx={{ ml: 0.5 }}
            />{' '}
            <Chip size="small" variant="outlined" label={report.kind} />
          </>
        }
        secondary={
          <>
            {[report.author, when].filter(Boolean).join(' · ') || t('Author unknown')}
            {report.text && (
              <Box
                component="span"
                sx={{ display: 'block', whiteSpace: 'pre-wrap', color: 'text.primary', mt: 0.5 }}
              >
                {report.text}
              </Box>
            )}
          </>
        }
      />
    </ListItem>
  );
}

function AddReport({ studyUuid }: { studyUuid: string }) {
  const { t } = useTranslation();
  const add = useAddReport(studyUuid);
  const [kind, setKind] = useState<'text' | 'pdf'>('text');
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [pdf, setPdf] = useState<File | null>(null);
  const [final, setFinal] = useState(false);
  const ready = kind === 'text' ? text.trim() !== '' : pdf !== null;

  const submit = () =>
    add.mutate(
      kind === 'text'
        ? { title: title.trim(), final, text: text.trim() }
        : { title: title.trim(), final, pdf: pdf! },
      {
        onSuccess: () => {
          setTitle('');
          setText('');
          setPdf(null);
          setFinal(false);
        },
      },
    );

  return (
    <Stack spacing={1.5} component="section" aria-label={t('Add a report')}>
      <Typography variant="subtitle2" component="h3">
        {t('Add a report')}
      </Typography>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={kind}
        onChange={(_e, next: 'text' | 'pdf' | null) => next && setKind(next)}
        aria-label={t('Report kind')}
      >
        <ToggleButton value="text">{t('Text')}</ToggleButton>
        <ToggleButton value="pdf">{t('PDF')}</ToggleButton>
      </ToggleButtonGroup>
      <TextField
        size="small"
        label={t('Title')}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 64 } }}
      />
      {kind === 'text' ? (
        <TextField
          label={t('Report')}
          multiline
          minRows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          slotProps={{ htmlInput: { maxLength: MAX_REPORT_TEXT } }}
        />
      ) : (
        <Button variant="outlined" component="label" sx={{ alignSelf: 'flex-start' }}>
          {pdf ? pdf.name : t('Choose a PDF')}
          <input
            hidden
            type="file"
            accept="application/pdf"
            aria-label={t('PDF file')}
            onChange={(e) => setPdf(e.target.files?.[0] ?? null)}
          />
        </Button>
      )}
      <FormControlLabel
        control={<Checkbox checked={final} onChange={(e) => setFinal(e.target.checked)} />}
        label={t('Final (otherwise Preliminary)')}
      />
      {add.isError && <Alert severity="error">{t('Failed to add the report.')}</Alert>}
      {add.isSuccess && <Alert severity="success">{t('The report was added.')}</Alert>}
      <Button
        variant="contained"
        sx={{ alignSelf: 'flex-start' }}
        disabled={!ready || add.isPending}
        onClick={submit}
      >
        {t('Add report')}
      </Button>
    </Stack>
  );
}
