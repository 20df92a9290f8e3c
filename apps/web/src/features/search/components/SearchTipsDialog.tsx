import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';

const TIPS: { title: string; text: string }[] = [
  {
    title: 'General search',
    text: 'Text fields give partial matches: any exam whose field contains what you typed is found. Fill several fields to narrow the results.',
  },
  { title: 'Accession number search', text: 'The accession number is an exact match.' },
  {
    title: 'Saved search',
    text: 'Save the current filters under a name with Save search, and apply them later from Saved searches.',
  },
  {
    title: 'Patient name search',
    text: 'Patient names are searched as LAST%FIRST, with % as a wildcard. For example DOE%JOHN.',
  },
  {
    title: 'Date of birth search',
    text: 'The date of birth is typed in the date format of your Profile. The study date input is YYYYMMDD.',
  },
];

/** The search-tips modal (SPEC.md sections 2 and 5). */
export function SearchTipsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="search-tips-title" maxWidth="sm" fullWidth>
      <DialogTitle id="search-tips-title">{t('Search tips')}</DialogTitle>
      <DialogContent dividers>
        {TIPS.map((tip) => (
          <section key={tip.title}>
            <Typography variant="subtitle2" component="h3">
              {t(tip.title)}
            </Typography>
            <Typography variant="body2" sx={{ mb: 2 }}>
              {t(tip.text)}
            </Typography>
          </section>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('Close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
