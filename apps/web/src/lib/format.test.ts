import { describe, expect, it } from 'vitest';
import { cutName, formatDicomDate, formatMegabytes, formatPatientName, formatTimestamp } from './format';

describe('format', () => {
  it('cuts names to 25 characters', () => {
    expect(cutName('Short')).toBe('Short');
    expect(cutName('A very long group name indeed, really')).toBe('A very long group name in…');
  });
  it('shows sizes in MB (1024*1024)', () => {
    expect(formatMegabytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
  it('shows DICOM dates as MM-DD-YYYY', () => {
    expect(formatDicomDate('20240131')).toBe('01-31-2024');
    expect(formatDicomDate('')).toBe('');
  });
  it('shows person names without carets', () => {
    expect(formatPatientName('DOE^JOHN^^')).toBe('DOE, JOHN');
  });
  it('shows timestamps in local time', () => {
    expect(formatTimestamp(new Date(2024, 0, 5, 9, 7).toISOString())).toBe('01-05-2024 09:07');
    expect(formatTimestamp('nonsense')).toBe('nonsense');
  });
});
