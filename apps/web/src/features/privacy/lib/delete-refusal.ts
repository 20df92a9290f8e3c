import type { AnonymizationProfileUse } from '@imaging-inbox/contract';
import { errorBody } from '../../../lib/api-error';
import type { Translator } from '../../../lib/i18n';

/** One thing that still applies the profile, in words. */
function useText(t: Translator['t'], use: AnonymizationProfileUse): string {
  switch (use.type) {
    case 'group':
      return t('the group {{name}}', { name: use.name });
    case 'destination':
      return t('the destination {{name}}', { name: use.name });
    case 'link':
      return t('a request link into {{name}}', { name: use.name });
    case 'routing_rule':
      return t('the routing rule {{name}}', { name: use.name });
    case 'push':
      return t('a push to {{name}} still under way', { name: use.name });
  }
}

/**
 * Why anonymization/delete refused a profile: what still applies it (IN_USE, named by the server),
 * so the admin knows what to change first; any other failure in general words.
 */
export function deleteRefusal(t: Translator['t'], profile: string, error: unknown): string {
  const body = errorBody(error);
  const uses = (body?.error_data as { uses?: AnonymizationProfileUse[] } | undefined)?.uses;
  if (body?.error_type === 'IN_USE' && body.error_subtype === 'anonymization' && uses?.length)
    return t('{{name}} was not deleted: it is still used by {{uses}}. Stop using it there first.', {
      name: profile,
      uses: uses.map((use) => useText(t, use)).join('; '),
    });
  return t('Failed to delete the profile {{name}}', { name: profile });
}
