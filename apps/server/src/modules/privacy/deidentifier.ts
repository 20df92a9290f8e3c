import type { AnonymizationProfile } from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';
import type { AnonymizationProfilesRepository } from './anonymization-profiles.repository.js';
import { presentProfile } from './anonymization.service.js';
import {
  DeidentificationError,
  deidentifiedTransferSyntax,
  deidentify,
  type DeidentifyResult,
} from './deidentify.js';
import { Pseudonyms } from './pseudonyms.js';
import type { DeidentificationSecrets } from './secrets.js';

/** The largest stored file de-identified (dcmjs holds the whole file in memory). */
export const DEIDENTIFY_MAX_FILE_BYTES = 256 * 1024 * 1024;

/** One profile of one account, ready to de-identify that account's files. */
export interface BoundProfile {
  profile: AnonymizationProfile;
  /**
   * The de-identified copy of one file, or `refused` when the file may carry burned-in text
   * (Burned In Annotation YES, US, secondary capture) and the profile does not keep such files.
   * `unreadable` for a file the engine cannot read or write (a DeidentificationError).
   */
  apply(bytes: Uint8Array): DeidentifiedFile;
  /** The UID a source UID becomes in this profile's copies (itself when the profile retains UIDs). */
  sentUid(sourceUid: string): string;
  /** The transfer syntax a copy of a file stored in `syntax` is written in. */
  sentTransferSyntax(syntax: string): string;
}

/** A file's de-identified copy, or why there is none. */
export type DeidentifiedFile =
  | { refused: false; result: DeidentifyResult }
  | { refused: true; reason: 'burned_in' | 'unreadable'; why?: string };

/**
 * What the paths an exam leaves by (download, a de-identifying group) use: an account's profile by
 * id, bound to the account's secret (decision 0067), so every path de-identifies the same way.
 */
export class Deidentifier {
  constructor(
    private readonly deps: { profiles: AnonymizationProfilesRepository; secrets: DeidentificationSecrets },
  ) {}

  /** The account's profile `profileId` bound to its secret; INVALID_FIELD `field` when the account has no such profile. */
  async bind(accountId: string, profileId: string, field = 'profile'): Promise<BoundProfile> {
    const row = await this.deps.profiles.find(profileId);
    if (!row || row.account_id !== accountId)
      throw invalidField(field, 'not a de-identification profile of the account');
    const profile = presentProfile(row);
    const secret = await this.deps.secrets.forAccount(accountId);
    const engineProfile = { options: profile.options, rules: profile.rules };
    const pseudonyms = new Pseudonyms(secret);
    const retainUids = profile.options.includes('retainUids');
    return {
      profile,
      sentUid: (uid) => (retainUids ? uid : pseudonyms.uid(uid)),
      sentTransferSyntax: deidentifiedTransferSyntax,
      apply(bytes) {
        let result: DeidentifyResult;
        try {
          result = deidentify({ bytes, profile: engineProfile, secret, maxBytes: DEIDENTIFY_MAX_FILE_BYTES });
        } catch (error) {
          if (error instanceof DeidentificationError)
            return { refused: true, reason: 'unreadable', why: error.message };
          throw error;
        }
        if (result.mayHaveBurnedInText && !profile.keep_burned_in)
          return { refused: true, reason: 'burned_in' };
        return { refused: false, result };
      },
    };
  }

  /** The account's profile that de-identifies what is shared into the group, if any. */
  async ofGroup(accountId: string, groupUuid: string): Promise<AnonymizationProfile | undefined> {
    const row = await this.deps.profiles.ofGroup(accountId, groupUuid);
    return row ? presentProfile(row) : undefined;
  }

  /** The UID a source UID becomes in the account's copies (unless the profile retains UIDs). */
  async uidFor(accountId: string, sourceUid: string, profileId: string): Promise<string> {
    const row = await this.deps.profiles.find(profileId);
    if (row && presentProfile(row).options.includes('retainUids')) return sourceUid;
    return new Pseudonyms(await this.deps.secrets.forAccount(accountId)).uid(sourceUid);
  }
}
