import { createContext, useContext } from 'react';
import type { SessionUser } from '@imaging-inbox/contract';

export const SessionContext = createContext<SessionUser | null>(null);

/** The validated session user; only inside the session guard. */
export function useSession(): SessionUser {
  const user = useContext(SessionContext);
  if (!user) throw new Error('useSession outside the session guard');
  return user;
}
