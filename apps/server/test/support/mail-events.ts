import { expect } from 'vitest';
import type { ApiClient } from './test-server.js';

/** Sets a user's mail preferences in a namespace (user/event/set), which must be taken; answers them. */
export async function setMailEvents(
  api: ApiClient,
  sid: string,
  namespaceId: string,
  flags: Record<string, number>,
): Promise<Record<string, unknown>> {
  const answer = await api.get('user/event/set', { sid, namespace_id: namespaceId, ...flags });
  expect(answer.body.status, JSON.stringify(answer.body)).toBe('OK');
  return answer.body;
}
