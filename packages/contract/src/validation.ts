import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { isStrongPassword } from './password-rule.js';

export const emailSchema = z.string().trim().min(1, MESSAGES.emailRequired).email(MESSAGES.emailInvalid);

export const newPasswordSchema = z
  .string()
  .min(1, MESSAGES.resetPasswordRequired)
  .refine(isStrongPassword, MESSAGES.passwordRule);
