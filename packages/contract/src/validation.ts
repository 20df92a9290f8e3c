import { z } from 'zod';
import { MESSAGES } from './messages.js';

/** At least 8 characters, with at least 2 digits and at least 2 letters (SPEC.md section 5). */
export function isStrongPassword(value: string): boolean {
  const digits = value.replace(/[^0-9]/g, '').length;
  const letters = value.replace(/[^\p{L}]/gu, '').length;
  return value.length >= 8 && digits >= 2 && letters >= 2;
}

export const emailSchema = z.string().trim().min(1, MESSAGES.emailRequired).email(MESSAGES.emailInvalid);

export const newPasswordSchema = z
  .string()
  .min(1, MESSAGES.resetPasswordRequired)
  .refine(isStrongPassword, MESSAGES.passwordRule);
