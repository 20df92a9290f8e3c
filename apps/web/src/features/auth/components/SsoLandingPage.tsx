import { useEffect } from 'react';
import { Loading } from '../../../components/Loading';
import { finishSsoSignIn } from '../api/sso-landing';

/**
 * `/sso`, where a sign-in through a provider lands: keeps the session and goes on to the inbox (or
 * the page the sign-in started from), replacing this entry so the sid never stays in history.
 */
export function SsoLandingPage() {
  useEffect(() => {
    const to = finishSsoSignIn(window.location.hash) ?? '/';
    window.location.replace(to);
  }, []);
  return <Loading />;
}
