import { DomainError } from '../../domain/errors.js';

/**
 * What a de-identifying request link needs of the privacy module's Deidentifier (decision 0071),
 * declared here so sharing does not depend on privacy: a profile of the link's account, bound to
 * the account's secret, the one engine every path uses.
 */
export interface LinkProfiles {
  /** The account's profile; INVALID_FIELD `field` when the account has no such profile. */
  bind(
    accountId: string,
    profileId: string,
    field?: string,
  ): Promise<{
    profile: { uuid: string; name: string };
    apply(
      bytes: Uint8Array,
    ):
      | { refused: false; result: { bytes: Uint8Array } }
      | { refused: true; reason: 'burned_in' | 'unreadable'; why?: string };
  }>;
}

/**
 * How a file uploaded through a de-identifying link is stored: its de-identified copy, or refused
 * (NOT_PERMITTED `burned_in_text` when it may show burned-in text and the profile does not keep
 * such files, `not_deidentifiable` when the engine cannot read it; the profile deleted since:
 * `deidentification_profile_gone`), so nothing identified reaches the link's group.
 */
export function linkRewrite(
  profiles: LinkProfiles | undefined,
  link: { account_id: string; anonymization_id: string | null },
): ((bytes: Uint8Array) => Promise<Uint8Array>) | undefined {
  const profileId = link.anonymization_id;
  if (!profileId) return undefined;
  return async (bytes) => {
    let bound;
    try {
      bound = await profiles!.bind(link.account_id, profileId);
    } catch {
      throw new DomainError('NOT_PERMITTED', 'deidentification_profile_gone');
    }
    const applied = bound.apply(bytes);
    if (!applied.refused) return applied.result.bytes;
    if (applied.reason === 'burned_in') throw new DomainError('NOT_PERMITTED', 'burned_in_text');
    throw new DomainError('NOT_PERMITTED', 'not_deidentifiable', { why: applied.why ?? null });
  };
}
