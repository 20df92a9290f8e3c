import { describe, expect, it } from 'vitest';
import {
  emailFieldSchema,
  emailSchema,
  newPasswordFieldSchema,
  newPasswordSchema,
} from '@imaging-inbox/contract';
import { loginErrors } from './login-rules';
import { passwordLostSchema, resetPasswordSchema } from './schemas';

interface ParseResult {
  success: boolean;
  error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}

function messages(result: ParseResult): Record<string, string> {
  if (result.success || !result.error) return {};
  // The form shows the first message of each field, as the resolver does.
  const first: Record<string, string> = {};
  for (const issue of result.error.issues) first[issue.path.map(String).join('.')] ??= issue.message;
  return first;
}

describe('sign-in validation', () => {
  it('requires username and password', () => {
    expect(loginErrors({ login: '  ', password: '' })).toEqual({
      login: 'Username is required',
      password: 'Password is required',
    });
  });
  it('accepts filled fields', () => {
    expect(loginErrors({ login: 'a@b.c', password: 'x' })).toEqual({});
  });
});

describe('e-mail validation', () => {
  it('requires a valid e-mail', () => {
    expect(messages(passwordLostSchema.safeParse({ email: '' }))).toEqual({ email: 'Email is required' });
    expect(messages(passwordLostSchema.safeParse({ email: 'nope' }))).toEqual({
      email: 'Please enter a valid email',
    });
    expect(passwordLostSchema.safeParse({ email: 'someone@demo.local' }).success).toBe(true);
  });
});

describe('reset password validation', () => {
  it('requires both fields', () => {
    expect(messages(resetPasswordSchema.safeParse({ password: '', confirm: '' }))).toEqual({
      password: 'Reset password is required.',
      confirm: 'Confirm reset password is required.',
    });
  });
  it.each(['short12', 'abcdefgh1', '12345678a', 'abcdefghij'])('rejects the weak password %s', (pw) => {
    expect(messages(resetPasswordSchema.safeParse({ password: pw, confirm: pw })).password).toBe(
      'Password must have at least 8 characters with at least 2 digits and 2 letters.',
    );
  });
  it('needs a matching confirmation', () => {
    expect(messages(resetPasswordSchema.safeParse({ password: 'abcdef12', confirm: 'abcdef13' }))).toEqual({
      confirm: 'Passwords do not match.',
    });
  });
  it('accepts 8 characters with 2 digits and 2 letters', () => {
    expect(resetPasswordSchema.safeParse({ password: 'ab123456', confirm: 'ab123456' }).success).toBe(true);
  });
});

describe('zod/mini twins in the contract', () => {
  it.each(['', '  ', 'nope', 'a@b', 'someone@demo.local', ' padded@demo.local '])('email %j', (value) => {
    expect(messages(emailFieldSchema.safeParse(value))).toEqual(messages(emailSchema.safeParse(value)));
  });
  it.each(['', 'short', 'abcdefgh', 'ab123456', '12345678a', 'Demo-pass-2024'])(
    'new password %j',
    (value) => {
      expect(messages(newPasswordFieldSchema.safeParse(value))).toEqual(
        messages(newPasswordSchema.safeParse(value)),
      );
    },
  );
});
