import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import type { Nomination, NominationFormField } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { useDateDisplay } from '../../../../lib/date-preferences';
import { answerLabel, formText } from '../../lib/nomination-form';

interface Props {
  nomination: Nomination | null;
  fields: readonly NominationFormField[] | null | undefined;
  onClose: () => void;
}

/** What was submitted: the gatekeeper, when, and every answer of the form under its label. */
export function NominationDetailsDialog({ nomination, fields, onClose }: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  return (
    <Dialog open={nomination !== null} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('Nomination details')}</DialogTitle>
      {nomination && (
        <DialogContent>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gridTemplateColumns: 'minmax(120px, auto) 1fr',
              columnGap: 2,
              rowGap: 0.75,
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
            }}
          >
            <dt>{t('Gatekeeper group')}</dt>
            <dd>{nomination.gatekeeper_name}</dd>
            <dt>{t('Nominated from')}</dt>
            <dd>{nomination.source}</dd>
            <dt>{t('Submitted')}</dt>
            <dd>{dates.timestamp(nomination.submitted_at)}</dd>
            {Object.entries(nomination.answers).map(([name, value]) => (
              <Box key={name} sx={{ display: 'contents' }}>
                <dt>{formText(answerLabel(fields, name))}</dt>
                <dd>{value}</dd>
              </Box>
            ))}
          </Box>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose}>{t('Close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
