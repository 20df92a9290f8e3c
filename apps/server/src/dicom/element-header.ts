/**
 * The element header layout of the little-endian transfer syntaxes (PS3.5 7.1), spelled once for
 * the two places that read it: the Part-10 parser proving the elements after Pixel Data are whole
 * (`parse.ts`) and the DIMSE client's query identifier codec (`dimse/client/identifier.ts`).
 */

/** Explicit-VR elements whose length field is 4 bytes (after 2 reserved bytes) instead of 2 (PS3.5 7.1.2). */
export const LONG_LENGTH_VRS: ReadonlySet<string> = new Set([
  'OB',
  'OD',
  'OF',
  'OL',
  'OV',
  'OW',
  'SQ',
  'SV',
  'UC',
  'UN',
  'UR',
  'UT',
  'UV',
]);
