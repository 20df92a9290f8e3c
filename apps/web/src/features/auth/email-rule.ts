import { emailSchema } from '@imaging-inbox/contract';

/**
 * The contract's e-mail rule (trimmed, then a valid address), for the sign-in page's e-mail step:
 * a module of its own so that zod is fetched on the first submit rather than with the page.
 * Answers the trimmed address, or null when it is not one.
 */
export function validEmail(typed: string): string | null {
  const parsed = emailSchema.safeParse(typed);
  return parsed.success ? parsed.data : null;
}
