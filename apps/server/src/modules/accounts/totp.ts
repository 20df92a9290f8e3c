import { randomInt } from 'node:crypto';
import { authenticator } from 'otplib';
import QRCode from 'qrcode';
import type { TotpEnrolment } from '@imaging-inbox/contract';

/** RFC 6238 with the parameters every authenticator app takes: SHA-1, 6 digits, 30-second steps. */
const STEP_SECONDS = 30;
/** One step either side of now: a phone's clock a little off still signs in, no code lives long. */
const WINDOW = 1;
const ISSUER = 'Imaging Inbox';

export function newTotpSecret(): string {
  return authenticator.generateSecret(20);
}

export async function enrolmentOf(email: string, secret: string): Promise<TotpEnrolment> {
  const uri = authenticator.keyuri(email, ISSUER, secret);
  return { secret, otpauth_uri: uri, qr_svg: await QRCode.toString(uri, { type: 'svg', margin: 2 }) };
}

/** The 30-second step a 6-digit code is right for at `now` (within the window), or null. */
export function stepOfCode(code: string, secret: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const at = authenticator.clone({ epoch: now, window: WINDOW, step: STEP_SECONDS });
  const delta = at.checkDelta(code, secret);
  return delta === null ? null : Math.floor(now / 1000 / STEP_SECONDS) + delta;
}

/** Recovery codes read aloud or typed from paper: no 0/O or 1/I/L to confuse. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** `XXXXX-XXXXX`: 10 characters of a 31-letter alphabet, about 50 bits. */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A typed code without spaces or dashes, upper case: how codes are compared and hashed. */
export function normaliseCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}
