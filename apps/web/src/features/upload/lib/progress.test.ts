import { describe, expect, it } from 'vitest';
import { uploadProgress } from './progress';

describe('uploadProgress', () => {
  it('shows MB with one decimal (1 MB = 1024 × 1024) and a whole, clamped percent', () => {
    expect(uploadProgress(1.5 * 1024 * 1024, 10 * 1024 * 1024)).toEqual({
      uploadedMb: '1.5',
      totalMb: '10.0',
      percent: 15,
    });
    expect(uploadProgress(999, 1000).percent).toBe(99);
    expect(uploadProgress(2000, 1000).percent).toBe(100);
    expect(uploadProgress(0, 0)).toEqual({ uploadedMb: '0.0', totalMb: '0.0', percent: 0 });
  });
});
