import { createHmac } from 'node:crypto';
import { ourUid } from '../../dicom/uid.js';

/**
 * Pseudonyms derived with a keyed hash (HMAC-SHA-256) under the account's de-identification secret:
 * the same patient or UID in one account always gives the same pseudonym, another account's secret
 * gives an unrelated one, and nothing stored maps a pseudonym back to the patient (without the
 * secret the hash cannot be recomputed, and with it only a known identity can be confirmed).
 */
export class Pseudonyms {
  private readonly uids = new Map<string, string>();

  constructor(private readonly secret: Uint8Array) {}

  private mac(purpose: string, value: string): Buffer {
    return createHmac('sha256', this.secret).update(purpose).update('\0').update(value).digest();
  }

  /** A 12-character code for a patient identity (upper-case hex, fits SH/LO/PN). */
  patientCode(identity: string): string {
    return this.mac('patient', identity).subarray(0, 6).toString('hex').toUpperCase();
  }

  /**
   * The new UID for a source UID: `2.25.` + 96 bits of the hash and the server's mark, so it is a
   * valid UID of ours and the same source UID always maps to the same one within the account.
   */
  uid(source: string): string {
    let mapped = this.uids.get(source);
    if (!mapped) {
      mapped = ourUid(BigInt(`0x${this.mac('uid', source).subarray(0, 12).toString('hex')}`));
      if (this.uids.size < 100_000) this.uids.set(source, mapped);
    }
    return mapped;
  }

  /**
   * Days to move this patient's dates back (1 to 3652, about ten years): one offset per patient,
   * so intervals between a patient's exams are kept (Retain Longitudinal Temporal Information
   * with Modified Dates, PS3.15 E.3.6).
   */
  dateShiftDays(identity: string): number {
    return (this.mac('date-shift', identity).readUInt32BE(0) % 3652) + 1;
  }
}
