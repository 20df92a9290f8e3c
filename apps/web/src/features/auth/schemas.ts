import * as z from 'zod/mini';
import { MESSAGES, emailFieldSchema, newPasswordFieldSchema } from '@imaging-inbox/contract';

/** Sign-in: 'Username is required', 'Password is required' (SPEC.md section 5). */
export const loginSchema = z.object({
  login: z.string().check(z.trim(), z.minLength(1, MESSAGES.usernameRequired)),
  password: z.string().check(z.minLength(1, MESSAGES.passwordRequired)),
});
export type LoginValues = z.infer<typeof loginSchema>;

export const passwordLostSchema = z.object({ email: emailFieldSchema });
export type PasswordLostValues = z.infer<typeof passwordLostSchema>;

/** New password (8+ characters, 2+ digits, 2+ letters) and a matching confirmation. */
export const resetPasswordSchema = z
  .object({
    password: newPasswordFieldSchema,
    confirm: z.string().check(z.minLength(1, MESSAGES.confirmResetPasswordRequired)),
  })
  .check(
    z.refine((v) => v.password === v.confirm, { message: MESSAGES.passwordsDoNotMatch, path: ['confirm'] }),
  );
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>;
