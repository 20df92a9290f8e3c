import { describe, expect, it } from 'vitest';
import { firstPart } from './multipart';

describe('firstPart', () => {
  it('cuts the first part out of a multipart/related body, binary bytes intact', () => {
    const payload = new Uint8Array([0, 13, 10, 45, 45, 255, 1]);
    const head = new TextEncoder().encode('--b1\r\nContent-Type: application/dicom\r\n\r\n');
    const tail = new TextEncoder().encode('\r\n--b1--\r\n');
    const body = new Uint8Array([...head, ...payload, ...tail]);
    const part = firstPart(body.buffer, 'multipart/related; type="application/dicom"; boundary=b1');
    expect([...new Uint8Array(part)]).toEqual([...payload]);
  });

  it('answers a plain body as it is and refuses a broken one', () => {
    const plain = new Uint8Array([1, 2, 3]).buffer;
    expect(firstPart(plain, 'application/dicom')).toBe(plain);
    expect(() =>
      firstPart(new TextEncoder().encode('--b1\r\nx').buffer, 'multipart/related; boundary=b1'),
    ).toThrow();
  });
});
