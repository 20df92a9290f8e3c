/**
 * What a de-identified push needs of the privacy module's Deidentifier (decision 0071), declared
 * here so pacs does not depend on privacy: an account's profile bound to the account's secret, the
 * one engine every path out of the account uses.
 */
export interface PushProfiles {
  /** The account's profile `profileId`; INVALID_FIELD `field` when the account has no such profile. */
  bind(accountId: string, profileId: string, field?: string): Promise<BoundPushProfile>;
}

export interface BoundPushProfile {
  profile: { uuid: string; name: string };
  /** The de-identified copy of one stored file, or why there is none (burned-in text, unreadable). */
  apply(
    bytes: Uint8Array,
  ):
    | { refused: false; result: { bytes: Uint8Array; sopInstanceUid: string } }
    | { refused: true; reason: 'burned_in' | 'unreadable'; why?: string };
  /** The SOP Instance UID the PACS receives for a stored one. */
  sentUid(sourceUid: string): string;
  /** The transfer syntax the copy of a file stored in `syntax` is written in. */
  sentTransferSyntax(syntax: string): string;
}

/** The reason an instance left out for burned-in text carries (the web app says it in words). */
export const BURNED_IN_REFUSAL = 'burned_in_text';
