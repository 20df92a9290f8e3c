/**
 * DICOM UID generation.
 *
 * The server has no registered organisation root, so it uses the `2.25` arc (PS3.5 B.2): a UID of the form
 * `2.25.<UUID as one unsigned decimal integer>` is globally unique without registration. The integer is
 * at most 39 digits, so `2.25.` + 39 digits = 44 characters, leaving room under the 64-character limit to
 * append `.series.instance` components when UIDs are derived from a parent (see generate.ts).
 */
import { randomBytes } from 'node:crypto';

export const ORG_ROOT = '2.25';

/** `2.25.` + a 128-bit integer (random, or given), in decimal without leading zeros. */
export function uidFromInteger(value: bigint): string {
  return `${ORG_ROOT}.${value.toString(10)}`;
}

/** A fresh random UID. 128 random bits (not a v4 UUID's 122) — the 2.25 arc only needs uniqueness. */
export function newUid(): string {
  return uidFromInteger(BigInt(`0x${randomBytes(16).toString('hex')}`));
}

/** UID syntax of PS3.5 9.1: digits and dots, no empty or zero-led components, at most 64 characters. */
export function isValidUid(uid: string): boolean {
  return uid.length <= 64 && /^(0|[1-9]\d*)(\.(0|[1-9]\d*))+$/.test(uid);
}
