import { MESSAGES } from '@imaging-inbox/contract';

export interface LoginValues {
  login: string;
  password: string;
}

/**
 * Sign-in: 'Username is required', 'Password is required' (SPEC.md section 5); the username is
 * trimmed. Two rules in plain code rather than a zod schema and a form library: the sign-in page
 * then loads neither.
 */
export function loginErrors(values: LoginValues): Partial<Record<keyof LoginValues, string>> {
  const errors: Partial<Record<keyof LoginValues, string>> = {};
  if (values.login.trim() === '') errors.login = MESSAGES.usernameRequired;
  if (values.password === '') errors.password = MESSAGES.passwordRequired;
  return errors;
}
