import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Column, Notice, SignInCard, Waiting } from '../../../components/plain/kit';
import { lazyPage } from '../../../lib/lazy-page';
import { getSid } from '../../../lib/storage';
import { useSignInNavigation } from '../sign-in-navigation';
import { ssoLookup } from '../api/sso';
import { LoginForm } from './LoginForm';
import { SsoEmailStep, SsoErrorAlert } from './SsoEmailStep';

// Password recovery (and the e-mail rule it validates with) loads when asked for.
const ForgotPasswordForm = lazyPage(
  () => import('./ForgotPasswordForm'),
  (m) => m.ForgotPasswordForm,
);

/** Goes to `to` once rendered, as the router's <Navigate replace> does. */
function Leave({ to }: { to: string }) {
  const { leave } = useSignInNavigation();
  useEffect(() => leave(to), [leave, to]);
  return null;
}

/**
 * The root page: restores a stored session (an authenticated user goes to the inbox), otherwise
 * shows sign-in or password recovery. It loads no query library, no router and no MUI: sign-in is
 * two plain requests, its navigation comes from a SignInNavigationProvider, and its controls are
 * plain elements drawn as MUI draws them (components/plain, decision 0075).
 */
export function SignInPage() {
  const { t } = useTranslation();
  const { notice } = useSignInNavigation();
  const [view, setView] = useState<'login' | 'forgot'>('login');
  // When some account signs in through its provider the page asks for the e-mail first (the
  // password form until the server answered; a failed look-up leaves it).
  const [emailFirst, setEmailFirst] = useState<boolean | null>(null);
  const [typedEmail, setTypedEmail] = useState('');
  const ssoError = new URLSearchParams(window.location.search).get('sso_error');
  useEffect(() => {
    let live = true;
    ssoLookup()
      .then((answer) => live && setEmailFirst(answer.any === 1))
      .catch(() => live && setEmailFirst(false));
    return () => {
      live = false;
    };
  }, []);
  // A stored session goes to the inbox, whose guard checks it (an ended one comes back here).
  if (getSid() !== null) return <Leave to="/group/list" />;

  return (
    <SignInCard title={t('Imaging Inbox')}>
      <Column>
        {notice && <Notice severity="success">{t(notice)}</Notice>}
        {ssoError && <SsoErrorAlert reason={ssoError} />}
        {view === 'login' && emailFirst ? (
          <SsoEmailStep
            onPassword={(email) => {
              setTypedEmail(email);
              setEmailFirst(false);
            }}
          />
        ) : view === 'login' ? (
          <LoginForm initialLogin={typedEmail} onForgotPassword={() => setView('forgot')} />
        ) : (
          <Suspense fallback={<Waiting label={t('Loading')} />}>
            <ForgotPasswordForm onBack={() => setView('login')} />
          </Suspense>
        )}
      </Column>
    </SignInCard>
  );
}
