import { SUPPORTED_LANGUAGES } from '@imaging-inbox/contract';
import { describe, expect, it } from 'vitest';
import { MAIL_MESSAGES, mailDate, mailText, placeholdersOf } from '../../src/mail/messages/index.js';

const english = MAIL_MESSAGES.en;
const keys = Object.keys(english).sort();
const others = SUPPORTED_LANGUAGES.filter((l) => l !== 'en');

describe('e-mail message tables', () => {
  it.each(others)('%s has every key of English, and no other', (language) => {
    const table: Record<string, string | undefined> = MAIL_MESSAGES[language];
    const missing = keys.filter((key) => !table[key]?.trim());
    expect(missing, `keys missing in ${language}`).toEqual([]);
    expect(Object.keys(table).sort()).toEqual(keys);
  });

  it.each(others)('%s fills the same placeholders as English in every text', (language) => {
    const table: Record<string, string> = MAIL_MESSAGES[language];
    for (const key of keys) {
      expect(placeholdersOf(table[key] ?? ''), `${language} ${key}`).toEqual(
        placeholdersOf(english[key as keyof typeof english]),
      );
    }
  });

  it.each(others)('%s is translated, not copied from English', (language) => {
    const table: Record<string, string> = MAIL_MESSAGES[language];
    const copied = keys.filter((key) => table[key] === english[key as keyof typeof english]);
    expect(copied).toEqual([]);
  });

  it('fills placeholders once, leaving a value that looks like a placeholder as it is', () => {
    expect(mailText('fr', 'share.sharedYou', { sharedBy: '{sharedBy} Dr Martin' })).toBe(
      '{sharedBy} Dr Martin a partagé un examen avec vous.',
    );
    expect(mailText('es', 'sendCode.body', { code: '123456', minutes: 15 })).toBe(
      'Su código es 123456. Es válido durante 15 minutos y solo una vez.',
    );
  });

  it('writes dates the way each language does, in UTC', () => {
    const at = Date.UTC(2026, 10, 28, 9, 5);
    expect(mailDate('en', at)).toContain('November 28, 2026');
    expect(mailDate('fr', at)).toContain('28 novembre 2026');
    expect(mailDate('es', at)).toContain('28 de noviembre de 2026');
    for (const language of SUPPORTED_LANGUAGES) expect(mailDate(language, at)).toMatch(/9:05( AM)? UTC$/);
  });
});
