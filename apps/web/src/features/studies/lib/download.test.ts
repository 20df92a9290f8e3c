import { describe, expect, it } from 'vitest';
import { attachmentName, percent } from './download';

describe('download helpers', () => {
  it('reads the file name of Content-Disposition', () => {
    expect(attachmentName('attachment; filename="study_1.2.3.zip"', 'x.zip')).toBe('study_1.2.3.zip');
    expect(attachmentName("attachment; filename*=UTF-8''a%20b.zip", 'x.zip')).toBe('a b.zip');
    expect(attachmentName(null, 'x.zip')).toBe('x.zip');
  });
  it('gives a percentage only with a known size', () => {
    expect(percent({ loaded: 50, total: 200 })).toBe(25);
    expect(percent({ loaded: 50, total: null })).toBeNull();
    expect(percent({ loaded: 300, total: 200 })).toBe(100);
  });
});
