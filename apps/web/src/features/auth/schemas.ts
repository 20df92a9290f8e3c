import * as z from 'zod/mini';
import { MESSAGES, emailFieldSchema, newPasswordFieldSchema } from '@imaging-inbox/contract';

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
