import { Alert, Button, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import { MESSAGES, type DestinationRetrieve, type DestinationSearchResult } from '@imaging-inbox/contract';
import { useDateDisplay } from '../../../lib/date-preferences';
import { formatModalities, formatPatientName } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';

interface Props {
  exams: DestinationSearchResult[];
  /** The latest retrieve of each exam, by Study Instance UID. */
  retrieves: ReadonlyMap<string, DestinationRetrieve>;
  retrieving: boolean;
  onRetrieve: () => void;
  /** The group the exams are retrieved into (the page's group). */
  groupName: string;
}

/**
 * The exams picked for retrieve, the group they go into, and each one's retrieving / success /
 * failure message.
 */
export function SelectedExams({ exams, retrieves, retrieving, onRetrieve, groupName }: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const waiting = exams.filter((e) => retrieves.get(e.study_uid)?.state !== 'running');
  return (
    <Paper variant="outlined" sx={{ p: 2 }} aria-label={t('Selected exams')} component="section">
      <Typography variant="h6" component="h2">
        {t('Selected exams')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('Exams are retrieved into the group {{group}}.', { group: groupName })}
      </Typography>
      {exams.length === 0 && <Typography color="text.secondary">{t('No exams selected.')}</Typography>}
      <List dense>
        {exams.map((exam) => {
          const retrieve = retrieves.get(exam.study_uid);
          return (
            <ListItem key={exam.study_uid} disableGutters sx={{ display: 'block' }}>
              <ListItemText
                primary={`${formatPatientName(exam.patient_name)} — ${exam.study_description || formatModalities(exam.modality)}`}
                secondary={dates.day(exam.study_date)}
              />
              {retrieve?.state === 'running' && (
                <Alert severity="info">
                  {t(MESSAGES.retrieveRetrieving)} {t('{{n}} received', { n: retrieve.completed })}
                </Alert>
              )}
              {retrieve?.state === 'done' && (
                <Alert severity="success">
                  {t(MESSAGES.retrieveSuccess)} ({t('{{n}} images', { n: retrieve.completed })})
                </Alert>
              )}
              {retrieve?.state === 'failed' && (
                <Alert severity="error">
                  {t(MESSAGES.retrieveFailed)}: {retrieve.reason}
                </Alert>
              )}
            </ListItem>
          );
        })}
      </List>
      <Button variant="contained" disabled={waiting.length === 0 || retrieving} onClick={onRetrieve}>
        {t('Retrieve')}
      </Button>
    </Paper>
  );
}
