import { describe, expect, it } from 'vitest';
import { t } from './i18n';

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
