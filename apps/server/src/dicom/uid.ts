/**
 * DICOM UID generation.
 *
 * The server has no registered organisation root, so it uses the `2.25` arc (PS3.5 B.2): a UID of the form
 * `2.25.<UUID as one unsigned decimal integer>` is globally unique without registration. The integer is
 * at most 39 digits, so `2.25.` + 39 digits = 44 characters, leaving room under the 64-character limit to
 * append `.series.instance` components when UIDs are derived from a parent (see generate.ts).
 *
 * The UIDs the server mints (decision 0058) are 96 bits of identity then a 32-bit mark derived from
 * them, so they are told from any other system's `2.25` UIDs (`isOurUid`): random for something new
 * (`newUid`), derived from what they name where the same thing must get the same UID (`derivedUid`).
 */
import { createHash, randomBytes } from 'node:crypto';

export const ORG_ROOT = '2.25';

/** `2.25.` + a 128-bit integer (random, or given), in decimal without leading zeros. */
export function uidFromInteger(value: bigint): string {
  return `${ORG_ROOT}.${value.toString(10)}`;
}

const IDENTITY_BITS = 96n;
const MARK_BITS = 32n;
const IDENTITY_MASK = (1n << IDENTITY_BITS) - 1n;
const MARK_MASK = (1n << MARK_BITS) - 1n;
/** Hashed with the identity into the mark; changing it would disown every UID minted so far. */
const MARK_LABEL = 'imaging-inbox uid mark 1';
/** `2.25.` and at most 39 digits: checked before any arithmetic, so any input is cheap to judge. */
const ROOT_2_25 = /^2\.25\.(0|[1-9]\d{0,38})$/;

function markOf(identity: bigint): bigint {
  const digest = createHash('sha256').update(MARK_LABEL).update(identity.toString(16)).digest();
  return BigInt(digest.readUInt32BE(0));
}

/** The UID of ours for 96 bits of identity: `2.25.` + the identity followed by its 32-bit mark. */
export function ourUid(identity: bigint): string {
  const id = identity & IDENTITY_MASK;
  return uidFromInteger((id << MARK_BITS) | markOf(id));
}

/**
 * Whether the server minted this UID: under `2.25`, its low 32 bits the mark of the 96 above. The
 * mark is no secret (anyone may compute it); it tells ours from another system's `2.25` UIDs, which
 * pass by chance once in 4 billion.
 */
export function isOurUid(uid: string): boolean {
  const match = ROOT_2_25.exec(uid);
  if (!match) return false;
  const value = BigInt(match[1]!);
  if (value >> (IDENTITY_BITS + MARK_BITS) !== 0n) return false;
  return (value & MARK_MASK) === markOf(value >> MARK_BITS);
}

/** A fresh UID of ours: 96 random bits from the CSPRNG (unique: a clash among 10^9 is under 10^-10). */
export function newUid(): string {
  return ourUid(BigInt(`0x${randomBytes(12).toString('hex')}`));
}

/** The UID of ours for these parts: the same parts always give it, other parts another one. */
export function derivedUid(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return ourUid(BigInt(`0x${hash.digest('hex').slice(0, 24)}`));
}

/** UID syntax of PS3.5 9.1: digits and dots, no empty or zero-led components, at most 64 characters. */
export function isValidUid(uid: string): boolean {
  return uid.length <= 64 && /^(0|[1-9]\d*)(\.(0|[1-9]\d*))+$/.test(uid);
}
