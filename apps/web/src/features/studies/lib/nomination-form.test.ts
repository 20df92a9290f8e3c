import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { answerLabel, formText } from './nomination-form';

describe('formText', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('shows the standard form labels and choices in the user language, and a group’s own words as written', async () => {
    await setLanguage('fr');
    expect(formText('Order type')).toBe('Type de commande');
    expect(formText('Reason for visit')).toBe('Motif de la consultation');
    expect(formText('Nominated by')).toBe('Soumis par');
    expect(formText('Routine')).toBe('Routine');
    expect(formText(answerLabel([], 'reason_for_visit'))).toBe('Motif de la consultation');
    // A custom label is the group's text, even when it happens to be a word the catalogue knows.
    expect(formText('Order type (ward)')).toBe('Order type (ward)');
    expect(formText('Save')).toBe('Save');
  });
});
