import { createContext, createElement, useContext, type ReactNode } from 'react';

/**
 * What the sign-in page needs of navigation, without the router: a first visit of `/` paints the
 * page before the router's code has loaded (app/App.tsx), and inside the router the same page gets
 * these from react-router (components/RoutedSignInPage.tsx).
 */
export interface SignInNavigation {
  /** A success text handed over by the page that came here (e.g. a password reset). */
  notice?: string;
  /** Leaves sign-in for `to`, replacing this history entry as every exit of sign-in does. */
  leave: (to: string) => void;
}

const Context = createContext<SignInNavigation | null>(null);

export function SignInNavigationProvider({
  value,
  children,
}: {
  value: SignInNavigation;
  children: ReactNode;
}) {
  return createElement(Context.Provider, { value }, children);
}

export function useSignInNavigation(): SignInNavigation {
  const navigation = useContext(Context);
  if (!navigation) throw new Error('the sign-in page renders inside a SignInNavigationProvider');
  return navigation;
}
