export const VERIFICATION = '1.2.840.10008.1.1';

/** The transfer syntaxes the SCP accepts, stored as received (no transcoding). */
export const ACCEPTED_TRANSFER_SYNTAXES: ReadonlySet<string> = new Set([
  '1.2.840.10008.1.2', // Implicit VR Little Endian
  '1.2.840.10008.1.2.1', // Explicit VR Little Endian
  '1.2.840.10008.1.2.1.99', // Deflated Explicit VR Little Endian
  '1.2.840.10008.1.2.4.50', // JPEG Baseline (Process 1)
  '1.2.840.10008.1.2.4.51', // JPEG Extended (Process 2 & 4)
  '1.2.840.10008.1.2.4.57', // JPEG Lossless (Process 14)
  '1.2.840.10008.1.2.4.70', // JPEG Lossless SV1
  '1.2.840.10008.1.2.4.80', // JPEG-LS Lossless
  '1.2.840.10008.1.2.4.81', // JPEG-LS Near-Lossless
  '1.2.840.10008.1.2.4.90', // JPEG 2000 Lossless
  '1.2.840.10008.1.2.4.91', // JPEG 2000
  '1.2.840.10008.1.2.5', // RLE Lossless
]);

/** Storage SOP classes live under 1.2.840.10008.5.1.4.1.1, except these few (PS3.4 B.5). */
const STORAGE_ROOT = '1.2.840.10008.5.1.4.1.1.';
const OTHER_STORAGE: ReadonlySet<string> = new Set([
  '1.2.840.10008.5.1.4.34.10', // RT Brachy Application Setup Delivery Instruction
  '1.2.840.10008.5.1.4.38.1', // Hanging Protocol
  '1.2.840.10008.5.1.4.39.1', // Color Palette
  '1.2.840.10008.5.1.4.43.1', // Generic Implant Template
  '1.2.840.10008.5.1.4.44.1', // Implant Assembly Template
  '1.2.840.10008.5.1.4.45.1', // Implant Template Group
]);

export function isStorageSopClass(uid: string): boolean {
  return uid.startsWith(STORAGE_ROOT) || OTHER_STORAGE.has(uid);
}
