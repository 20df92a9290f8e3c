import { z } from 'zod';
import { requiredText } from './api-params.js';

/** The account setting (account/get `settings`) that makes every member sign in with a code. */
export const REQUIRE_TWO_FACTOR_SETTING = 'require_two_factor';

/** How many single-use recovery codes an enrolment gives. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * A code as typed: a 6-digit TOTP or a recovery code (`XXXXX-XXXXX`), spaces allowed; bounded so no
 * input is held or hashed at length.
 */
export const otpParam = () => requiredText().pipe(z.string().max(32, 'at most 32 characters'));

/** user/totp/confirm: the first code from the authenticator, proving it holds the secret. */
export const totpConfirmRequest = z.object({ otp: otpParam() });

/** user/totp/disable: a current code (or a recovery code), so a borrowed session cannot turn it off. */
export const totpDisableRequest = z.object({ otp: otpParam() });

/** account/two_factor/set: whether the account requires two-factor codes of its members. */
export const accountTwoFactorSetRequest = z.object({
  account_id: requiredText(),
  required: z.enum(['0', '1']).transform((v) => v === '1'),
});

/** What an authenticator app needs: the secret, its otpauth:// URI and that URI as a QR code (SVG). */
export interface TotpEnrolment {
  secret: string;
  otpauth_uri: string;
  qr_svg: string;
}

/** user/totp/get: the caller's two-factor state. */
export interface TotpStatusAnswer {
  status: 'OK';
  enabled: 0 | 1;
  /** 1 when an account of the caller requires codes (disabling is then refused). */
  required: 0 | 1;
  recovery_codes_left: number;
}

export interface TotpEnrolmentAnswer extends TotpEnrolment {
  status: 'OK';
}

/**
 * account/user/totp/reset: an account admin removed a member's two-factor secret and recovery codes
 * (a lost phone); `removed` 0 when the member had none. They enrol again at their next sign-in when
 * an account of theirs requires codes.
 */
export interface TotpResetAnswer {
  status: 'OK';
  removed: 0 | 1;
}

/** user/totp/confirm, and session/login when it enabled a code: the recovery codes, shown once. */
export interface RecoveryCodesAnswer {
  status: 'OK';
  recovery_codes: string[];
}
