import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MEGABYTE } from '@imaging-inbox/contract';
import { browserLanguage, currentLanguage, setLabelOverrides, setLanguage, t } from './i18n';
import { formatMegabytes } from './format';

describe('English plurals', () => {
  it('says one exam, one file and one document in the singular, and more in the plural', () => {
    const found = '{{count}} exams found in {{files}} files ({{size}})';
    expect(t(found, { count: 1, files: 3, size: '1 MB' })).toBe('1 exam found in 3 files (1 MB)');
    expect(t(found, { count: 2, files: 3, size: '1 MB' })).toBe('2 exams found in 3 files (1 MB)');
    const other = '{{count}} other files are not sent: not DICOM, or not listed in the DICOMDIR';
    expect(t(other, { count: 1 })).toMatch(/^1 other file is not sent/);
    expect(t('{{count}} files of the selection cannot be uploaded', { count: 1 })).toBe(
      '1 file of the selection cannot be uploaded',
    );
    const documents =
      'These {{count}} documents ({{size}}) are sent as one exam: please enter its patient and exam details.';
    expect(t(documents, { count: 1, size: '2 MB' })).toMatch(/^This document \(2 MB\) is sent/);
    expect(t(documents, { count: 2, size: '2 MB' })).toMatch(/^These 2 documents \(2 MB\) are sent/);
  });
  it('says 1 hour, not 1 hours, in the request-duration hints', () => {
    const hint = '{{count}} hours ({{minutes}} minutes)';
    expect(t(hint, { count: 1, minutes: 60 })).toBe('1 hour (60 minutes)');
    expect(t(hint, { count: 3, minutes: 180 })).toBe('3 hours (180 minutes)');
  });
});

describe('other languages', () => {
  afterEach(async () => {
    setLabelOverrides([]);
    await setLanguage('en');
  });

  it('loads a language only when chosen, then speaks it', async () => {
    const source = readFileSync(new URL('./i18n.ts', import.meta.url), 'utf8');
    // Static imports would put every language in the sign-in page's chunk.
    expect(source).not.toMatch(/^import .*locales/m);
    expect(t('Sign in')).toBe('Sign in');
    await setLanguage('fr');
    expect(currentLanguage()).toBe('fr');
    expect(t('Sign in')).toBe('Se connecter');
    await setLanguage('es');
    expect(t('Sign in')).toBe('Iniciar sesión');
  });

  it('picks plural forms by the language’s rules: French says 0 and 1 in the singular', async () => {
    await setLanguage('fr');
    expect(t('{{count}} exams selected', { count: 0 })).toBe('0 examen sélectionné');
    expect(t('{{count}} exams selected', { count: 1 })).toBe('1 examen sélectionné');
    expect(t('{{count}} exams selected', { count: 2 })).toBe('2 examens sélectionnés');
    // A million is `many` in French; without its own form it reads like `other`.
    expect(t('{{count}} images', { count: 1_000_000 }).replace(/\s/g, ' ')).toBe('1 000 000 images');
    await setLanguage('es');
    expect(t('{{count}} exams selected', { count: 0 })).toBe('0 estudios seleccionados');
    expect(t('{{count}} exams selected', { count: 1 })).toBe('1 estudio seleccionado');
    expect(t('{{count}} years', { count: 58 })).toBe('58 años');
  });

  it('prefers the account’s label override of the current language, with its values', async () => {
    setLabelOverrides([
      { language: 'fr', key: 'Inbox', text: 'Corbeille d’arrivée' },
      { language: 'fr', key: 'Upload to {{name}}', text: 'Envoyer dans {{name}}' },
      { language: 'en', key: 'Inbox', text: 'Exams In' },
    ]);
    expect(t('Inbox')).toBe('Exams In');
    await setLanguage('fr');
    expect(t('Inbox')).toBe('Corbeille d’arrivée');
    expect(t('Upload to {{name}}', { name: 'Cardiologie' })).toBe('Envoyer dans Cardiologie');
    expect(t('Share')).toBe('Partager');
    setLabelOverrides([]);
    expect(t('Inbox')).toBe('Boîte de réception');
  });

  it('follows the first browser language it speaks, else English', () => {
    expect(browserLanguage(['de-DE', 'fr-CA', 'es'])).toBe('fr');
    expect(browserLanguage(['es-419'])).toBe('es');
    expect(browserLanguage(['de', 'it'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
  });
});

describe('numbers in the language', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('writes sizes with the language’s decimal mark and units, English as the SPEC says', async () => {
    expect(formatMegabytes(12.34 * MEGABYTE)).toBe('12.3 MB');
    expect(formatMegabytes(130_000)).toBe('126 KB');
    await setLanguage('fr');
    expect(formatMegabytes(12.34 * MEGABYTE).replace(/\s/g, ' ')).toBe('12,3 Mo');
    expect(formatMegabytes(130_000).replace(/\s/g, ' ')).toBe('126 ko');
    await setLanguage('es');
    expect(formatMegabytes(12.34 * MEGABYTE).replace(/\s/g, ' ')).toBe('12,3 MB');
  });
});
