import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '@imaging-inbox/contract';
import fr from '../../../locales/fr';
import es from '../../../locales/es';
import { permissionLabel } from './permission-label';

describe('permissionLabel', () => {
  it('gives every permission words of its own in English, French and Spanish', () => {
    for (const permission of ALL_PERMISSIONS) {
      const label = permissionLabel(permission);
      // Never the flag's name read aloud ("Study share share code").
      expect(label.toLowerCase()).not.toBe(permission.replace(/_/g, ' '));
      expect(fr[label], `${label} in French`).toBeTruthy();
      expect(es[label], `${label} in Spanish`).toBeTruthy();
    }
    expect(permissionLabel('study_share_share_code')).toBe('Send exams to a share code');
    expect(fr[permissionLabel('destination_search_mwl')]).toBe('Rechercher dans les listes de travail (MWL)');
  });
});
