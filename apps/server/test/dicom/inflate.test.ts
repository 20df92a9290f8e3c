import { describe, expect, it } from 'vitest';
import {
  buildInstance,
  parseArrivingHeader,
  parseDicomHeader,
  readDicomHeader,
} from '../../src/dicom/index.js';
import { INFLATE_FLOOR, inflateCeiling, MAX_INFLATE_RATIO } from '../../src/dicom/inflate.js';
import { baseSpec, deflateBomb } from './support.js';

const MiB = 1024 * 1024;
const instance = buildInstance(baseSpec({ rows: 2, columns: 2 }));

describe('the inflate ceiling of deflated datasets', () => {
  it('is the floor for small files, the ratio beyond it, and never past the upload limit', () => {
    expect(inflateCeiling(1000)).toBe(INFLATE_FLOOR);
    expect(inflateCeiling(10 * MiB)).toBe(10 * MiB * MAX_INFLATE_RATIO);
    expect(inflateCeiling(10 * MiB, 200 * MiB)).toBe(200 * MiB);
  });

  it('reads a deflated dataset within it, inflated off the main thread', async () => {
    const file = deflateBomb(instance, 12 * MiB);
    expect((await readDicomHeader(file, 2 * 1024 * MiB)).sopInstanceUid).toBe('2.25.1001.1.1');
    expect(parseDicomHeader(file).sopInstanceUid).toBe('2.25.1001.1.1');
  });

  it('refuses a dataset past the ratio, or past the upload limit, as DECOMPRESSION_LIMIT', async () => {
    const bomb = deflateBomb(instance, 256 * MiB); // about 256 KB: 1,000 to 1
    await expect(readDicomHeader(bomb, 2 * 1024 * MiB)).rejects.toMatchObject({
      code: 'DECOMPRESSION_LIMIT',
    });
    expect(() => parseDicomHeader(bomb)).toThrow(/DECOMPRESSION_LIMIT/);
    const fine = deflateBomb(instance, 12 * MiB);
    await expect(readDicomHeader(fine, 8 * MiB)).rejects.toMatchObject({ code: 'DECOMPRESSION_LIMIT' });
    // An early look at an arriving dataset inflates at most 1 MiB, and answers nothing past it.
    expect(parseArrivingHeader(bomb)).toBeUndefined();
  });

  it('keeps the event loop turning while a bomb is inflated', async () => {
    const bomb = deflateBomb(instance, 1024 * MiB);
    let last = performance.now();
    let worst = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    await expect(readDicomHeader(bomb, 2 * 1024 * MiB)).rejects.toMatchObject({
      code: 'DECOMPRESSION_LIMIT',
    });
    clearInterval(ticker);
    expect(worst).toBeLessThan(250);
  });
});
