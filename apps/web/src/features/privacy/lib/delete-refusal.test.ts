import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { setLanguage, t } from '../../../lib/i18n';
import { deleteRefusal } from './delete-refusal';

const inUse = new ApiError('IN_USE', 412, {
  status: 'ERROR',
  error_type: 'IN_USE',
  error_subtype: 'anonymization',
  error_data: {
    uses: [
      { type: 'group', uuid: 'g', name: 'Teaching Files' },
      { type: 'destination', uuid: 'd', name: 'Research PACS' },
      { type: 'link', uuid: 'l', name: 'Emergency' },
      { type: 'routing_rule', uuid: 'r', name: 'CT to research' },
      { type: 'push', uuid: 'p', name: 'Research PACS' },
    ],
  },
});

describe('deleteRefusal', () => {
  afterEach(() => setLanguage('en'));

  it('names everything that still uses the profile', () => {
    expect(deleteRefusal(t, 'Research', inUse)).toBe(
      'Research was not deleted: it is still used by the group Teaching Files; the destination ' +
        'Research PACS; a request link into Emergency; the routing rule CT to research; a push to ' +
        'Research PACS still under way. Stop using it there first.',
    );
  });

  it('says it in French', async () => {
    await setLanguage('fr');
    expect(deleteRefusal(t, 'Research', inUse)).toBe(
      "Research n'a pas été supprimé, car il est encore utilisé par : le groupe Teaching Files; la " +
        'destination Research PACS; un lien de demande vers Emergency; la règle de routage CT to ' +
        "research; un envoi vers Research PACS encore en cours. Cessez d'abord de l'y utiliser.",
    );
  });

  it('says any other failure in general words', () => {
    expect(deleteRefusal(t, 'Research', new ApiError('NETWORK_ERROR', 0))).toBe(
      'Failed to delete the profile Research',
    );
  });
});
