/**
 * At least 8 characters, with at least 2 digits and at least 2 letters (SPEC.md section 5). Kept
 * apart from the zod schemas so the sign-in page's zod/mini twins need no classic zod.
 */
export function isStrongPassword(value: string): boolean {
  const digits = value.replace(/[^0-9]/g, '').length;
  const letters = value.replace(/[^\p{L}]/gu, '').length;
  return value.length >= 8 && digits >= 2 && letters >= 2;
}
