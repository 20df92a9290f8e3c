import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SignInNavigationProvider } from '../sign-in-navigation';
import { SignInPage } from './SignInPage';

/** The sign-in page as the router's `/` route: its notice and exits come from react-router. */
export function RoutedSignInPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const navigation = useMemo(
    () => ({ notice, leave: (to: string) => void navigate(to, { replace: true }) }),
    [notice, navigate],
  );
  return (
    <SignInNavigationProvider value={navigation}>
      <SignInPage />
    </SignInNavigationProvider>
  );
}
