import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { LinkButton, Notice } from '../../../components/plain/kit';

/** 'An unexpected error occurred' with a refresh link (SPEC.md section 8), as the sign-in page draws it. */
export function UnexpectedNotice() {
  const { t } = useTranslation();
  return (
    <Notice severity="error">
      {t(MESSAGES.unexpectedError)}{' '}
      <LinkButton onClick={() => window.location.reload()}>{t('Refresh')}</LinkButton>
    </Notice>
  );
}
