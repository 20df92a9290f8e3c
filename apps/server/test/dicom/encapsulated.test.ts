/**
 * The encapsulated Pixel Data pieces shared by the video wrapping, the video stream locator and the
 * upload parser: what is written reads back, and what is not an item is told apart.
 */
import { describe, expect, it } from 'vitest';
import {
  ENCAPSULATED_PIXEL_DATA_HEADER,
  itemHeader,
  readItemHeader,
  sequenceDelimiter,
} from '../../src/dicom/encapsulated.js';

describe('encapsulated Pixel Data', () => {
  it('spells the element header, item and delimiter as PS3.5 A.4 does (explicit VR little endian)', () => {
    expect(Buffer.from(ENCAPSULATED_PIXEL_DATA_HEADER).toString('hex')).toBe('e07f10004f420000ffffffff');
    expect(Buffer.from(itemHeader(0x01020304)).toString('hex')).toBe('feff00e004030201');
    expect(Buffer.from(sequenceDelimiter()).toString('hex')).toBe('feffdde000000000');
  });

  it('reads items and the delimiter at any offset, and nothing else', () => {
    const bytes = Buffer.concat([Buffer.from([9, 9]), itemHeader(6), Buffer.alloc(6), sequenceDelimiter()]);
    expect(readItemHeader(bytes, 2)).toEqual({ kind: 'item', length: 6 });
    expect(readItemHeader(bytes.subarray(2), 14)).toEqual({ kind: 'delimiter' });
    // Too short, another tag, an item of undefined length (a sequence item, not a fragment).
    expect(readItemHeader(bytes, bytes.length - 4)).toBeNull();
    expect(readItemHeader(ENCAPSULATED_PIXEL_DATA_HEADER, 0)).toBeNull();
    expect(readItemHeader(itemHeader(0xffffffff), 0)).toBeNull();
    const otherElement = Buffer.from(itemHeader(0));
    otherElement.writeUInt16LE(0xe00d, 2);
    expect(readItemHeader(otherElement, 0)).toBeNull();
  });
});
