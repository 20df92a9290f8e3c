import * as z from 'zod/mini';
import { MESSAGES } from './messages.js';
import { isStrongPassword } from './password-rule.js';

/**
 * zod/mini twins of `emailSchema` and `newPasswordSchema` (validation.ts) with the same rules and
 * messages. The web app's sign-in page uses these: zod/mini tree-shakes to a fraction of classic
 * zod, which keeps the first page under its JavaScript budget.
 */
export const emailFieldSchema = z
  .string()
  .check(z.trim(), z.minLength(1, MESSAGES.emailRequired), z.email(MESSAGES.emailInvalid));

export const newPasswordFieldSchema = z
  .string()
  .check(z.minLength(1, MESSAGES.resetPasswordRequired), z.refine(isStrongPassword, MESSAGES.passwordRule));
