import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: used for session ids, reset tokens and link tokens. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newUuid(): string {
  return crypto.randomUUID();
}
