import { createContext, useContext } from 'react';
import type { AccountAnswer, PermissionFlags, SessionUser } from '@imaging-inbox/contract';
import type { InboxGroup } from './groups';

export interface InboxContextValue {
  user: SessionUser;
  account: AccountAnswer;
  /** The user's flags on the account namespace. */
  permissions: Partial<PermissionFlags>;
  groups: InboxGroup[];
}

export const InboxContext = createContext<InboxContextValue | null>(null);

export function useInbox(): InboxContextValue {
  const value = useContext(InboxContext);
  if (!value) throw new Error('useInbox outside InboxProvider');
  return value;
}
