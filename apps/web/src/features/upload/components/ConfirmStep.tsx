import { Alert, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes, formatPatientName } from '../../../lib/format';
import type { FoundStudy } from '../lib/studies';

/** Step 4: what will be sent where; the MRN note of SPEC.md section 5. */
export function ConfirmStep({
  destinationName,
  studies,
}: {
  destinationName: string;
  studies: FoundStudy[];
}) {
  const { t } = useTranslation();
  const files = studies.reduce((n, s) => n + s.fileIndexes.length, 0);
  const size = studies.reduce((n, s) => n + s.totalSize, 0);
  return (
    <Stack spacing={2}>
      <Typography>
        {t('{{count}} exams ({{files}} files, {{size}}) will be uploaded to {{destination}}.', {
          count: studies.length,
          files,
          size: formatMegabytes(size),
          destination: destinationName,
        })}
      </Typography>
      <List dense aria-label={t('Exams to upload')}>
        {studies.map((s) => (
          <ListItem key={s.studyUid} disableGutters>
            <ListItemText
              primary={`${formatPatientName(s.patientName)} (${t('MRN')} ${s.patientId || '—'})`}
              secondary={s.description}
            />
          </ListItem>
        ))}
      </List>
      <Alert severity="warning">{t(MESSAGES.uploadMrnNote)}</Alert>
    </Stack>
  );
}
