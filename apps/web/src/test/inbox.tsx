import type { ReactElement } from 'react';
import type { AccountAnswer, SessionUser } from '@imaging-inbox/contract';
import { InboxContext } from '../session/inbox-context';
import type { InboxGroup } from '../session/groups';
import { permissionFlags } from './factories';

export const testUser = { uuid: 'u1', name: 'Ann Clinician', admin: 0, sysadmin: 0 } as SessionUser;
export const testAccount = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;

/** An inbox group for component tests; every permission unless told otherwise. */
export function inboxGroup(over: Partial<InboxGroup> = {}): InboxGroup {
  return {
    uuid: 'g1',
    name: 'Emergency',
    type: 'CLOUD',
    namespaceId: 'ns-1',
    namespaceIds: ['ns-1'],
    permissions: permissionFlags(),
    states: ['Inbox'],
    ...over,
  };
}

/** `element` inside the signed-in inbox's context, with these groups. */
export function withInbox(element: ReactElement, groups: InboxGroup[] = [inboxGroup()]) {
  return (
    <InboxContext.Provider
      value={{ user: testUser, account: testAccount, permissions: permissionFlags(), groups }}
    >
      {element}
    </InboxContext.Provider>
  );
}
