import { useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Alert, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { CenteredCard } from '../../../components/CenteredCard';
import { Loading } from '../../../components/Loading';
import { getSid } from '../../../lib/storage';
import { useSessionUser } from '../api/session-user';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { LoginForm } from './LoginForm';

/**
 * The root page: restores a stored session (an authenticated user goes to the inbox), otherwise
 * shows sign-in or password recovery.
 */
export function SignInPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const [view, setView] = useState<'login' | 'forgot'>('login');
  const sid = getSid();
  const user = useSessionUser(sid);

  if (sid !== null && user.isSuccess) return <Navigate to="/group/list" replace />;
  if (sid !== null && user.isPending) return <Loading />;

  return (
    <CenteredCard title={t('Imaging Inbox')}>
      <Stack spacing={2}>
        {notice && <Alert severity="success">{t(notice)}</Alert>}
        {view === 'login' ? (
          <LoginForm onForgotPassword={() => setView('forgot')} />
        ) : (
          <ForgotPasswordForm onBack={() => setView('login')} />
        )}
      </Stack>
    </CenteredCard>
  );
}
