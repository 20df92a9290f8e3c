import type { SessionUser } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

export const getSessionUser = (signal?: AbortSignal) => api.get('session/user', {}, { signal });

let signedIn: { sid: string; user: SessionUser } | null = null;

/** The user the sign-in page just established, handed to the session guard without asking again. */
export function rememberSignedInUser(sid: string, user: SessionUser): void {
  signedIn = { sid, user };
}

export function signedInUser(sid: string | null): SessionUser | undefined {
  return signedIn !== null && signedIn.sid === sid ? signedIn.user : undefined;
}
