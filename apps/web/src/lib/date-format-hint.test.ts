import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from './i18n';
import { dateFormatHint } from './date-format-hint';

describe('dateFormatHint', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('writes the format with the letters of the user language', async () => {
    expect(dateFormatHint('MM-DD-YYYY')).toBe('MM-DD-YYYY');
    await setLanguage('fr');
    expect(dateFormatHint('MM-DD-YYYY')).toBe('MM-JJ-AAAA');
    expect(dateFormatHint('YYYY/MM/DD')).toBe('AAAA/MM/JJ');
    await setLanguage('es');
    expect(dateFormatHint('DD/MM/YYYY')).toBe('DD/MM/AAAA');
  });
});
