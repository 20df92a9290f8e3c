import { describe, expect, it } from 'vitest';
import {
  cutName,
  formatDicomDate,
  formatMegabytes,
  formatModalities,
  formatPatientAge,
  formatPatientName,
  formatTimestamp,
} from './format';

describe('format', () => {
  it('reads a multi-valued modality as a list, never with its DICOM backslash', () => {
    expect(formatModalities('SR\\US')).toBe('SR, US');
    expect(formatModalities('CT')).toBe('CT');
    expect(formatModalities('CT\\\\SR\\')).toBe('CT, SR');
    expect(formatModalities(['MR', ' PR '])).toBe('MR, PR');
    expect(formatModalities('')).toBe('');
    expect(formatModalities(null)).toBe('');
  });
  it('cuts names to 25 characters', () => {
    expect(cutName('Short')).toBe('Short');
    expect(cutName('A very long group name indeed, really')).toBe('A very long group name in…');
  });
  it('shows a DICOM age as people write it, and anything else as stored', () => {
    expect(formatPatientAge('058Y')).toBe('58 years');
    expect(formatPatientAge('001Y')).toBe('1 year');
    expect(formatPatientAge('003M')).toBe('3 months');
    expect(formatPatientAge('002W')).toBe('2 weeks');
    expect(formatPatientAge('010D')).toBe('10 days');
    expect(formatPatientAge('')).toBe('');
    expect(formatPatientAge(null)).toBe('');
    expect(formatPatientAge('about 60')).toBe('about 60');
  });
  it('shows sizes in MB (1024*1024)', () => {
    expect(formatMegabytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatMegabytes(1024 * 1024)).toBe('1.0 MB');
  });
  it('shows sizes below 1 MB in KB, never 0.0 MB', () => {
    expect(formatMegabytes(1024 * 1024 - 1)).toBe('1023 KB');
    expect(formatMegabytes(300 * 1024)).toBe('300 KB');
    expect(formatMegabytes(100)).toBe('1 KB');
    expect(formatMegabytes(0)).toBe('0 KB');
  });
  it('shows DICOM dates as MM-DD-YYYY unless the user chose another format', () => {
    expect(formatDicomDate('20240131')).toBe('01-31-2024');
    expect(formatDicomDate('20240131', 'YYYY/MM/DD')).toBe('2024/01/31');
    expect(formatDicomDate('20240131', 'DD-MM-YYYY')).toBe('31-01-2024');
    expect(formatDicomDate('2024013')).toBe('2024013');
    expect(formatDicomDate('')).toBe('');
  });
  it('shows person names without carets', () => {
    expect(formatPatientName('DOE^JOHN^^')).toBe('DOE, JOHN');
  });
  it('shows timestamps in local time', () => {
    expect(formatTimestamp(new Date(2024, 0, 5, 9, 7).toISOString())).toBe('01-05-2024 09:07');
    expect(formatTimestamp('nonsense')).toBe('nonsense');
  });
  it('shows timestamps in the chosen zone and format', () => {
    const noonUtc = '2024-07-01T12:05:00Z';
    expect(formatTimestamp(noonUtc, { dateFormat: 'YYYY-MM-DD', timeZone: 'Europe/Berlin' })).toBe(
      '2024-07-01 14:05',
    );
    expect(formatTimestamp(noonUtc, { dateFormat: 'DD/MM/YYYY', timeZone: 'America/Los_Angeles' })).toBe(
      '01/07/2024 05:05',
    );
    expect(
      formatTimestamp('2024-07-01T23:30:00Z', { dateFormat: 'MM/DD/YYYY', timeZone: 'Asia/Tokyo' }),
    ).toBe('07/02/2024 08:30');
  });
});
