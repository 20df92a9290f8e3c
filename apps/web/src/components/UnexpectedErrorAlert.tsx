import { Alert, Link } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../lib/i18n';

/** 'An unexpected error occurred' with a refresh link (SPEC.md section 8). */
export function UnexpectedErrorAlert() {
  const { t } = useTranslation();
  return (
    <Alert severity="error">
      {t(MESSAGES.unexpectedError)}{' '}
      <Link component="button" type="button" onClick={() => window.location.reload()}>
        {t('Refresh')}
      </Link>
    </Alert>
  );
}
