import { VIEWER_TOKEN_PREFIX, VIEWER_TOKEN_TTL_MS } from '@imaging-inbox/contract';
import { sessionExpired } from '../domain/errors.js';
import type { Caller } from '../policies/index.js';
import { requireStudy } from '../policies/index.js';
import type { SessionsRepository } from '../repositories/sessions.repository.js';
import type { StudyRow } from '../repositories/studies.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ViewerTokenRow, ViewerTokensRepository } from './viewer-tokens.repository.js';
import type { AuditService } from '../audit/audit.service.js';
import { studyEvent } from '../audit/audit.service.js';
import { hashToken, newSecretToken } from '../security/tokens.js';

export interface ViewerTokenDeps {
  tokens: ViewerTokensRepository;
  sessions: SessionsRepository;
  users: UsersRepository;
  audit: AuditService;
  now?: () => number;
}

/** What a viewer token opens: one study copy, by namespace and Study Instance UID. */
export interface ViewerScope {
  namespaceId: string;
  studyUid: string;
}

const expired = () => sessionExpired('viewer token expired');

/**
 * Short-lived, study-scoped credentials for the embedded viewer, so the iframe never carries the
 * long-lived session id. A token holds 256 random bits, is stored hashed, lives
 * VIEWER_TOKEN_TTL_MS and dies early with the session that asked for it. Permissions are checked
 * again on every use (through the issuing user's current memberships), never frozen at issue time.
 */
export class ViewerTokenService {
  private readonly now: () => number;
  constructor(private readonly deps: ViewerTokenDeps) {
    this.now = deps.now ?? Date.now;
  }

  static isViewerToken(credential: string): boolean {
    return credential.startsWith(VIEWER_TOKEN_PREFIX);
  }

  /** A token for a study the caller may view; anything else is NOT_FOUND, as for api/v3. */
  async issue(caller: Caller, study: StudyRow): Promise<{ token: string; expires: number }> {
    // A deleted study opens in no viewer: the token would reach nothing over DICOMweb.
    requireStudy(caller, study, { deleted: 'hidden' });
    const now = this.now();
    await this.deps.tokens.deleteExpired(now);
    const token = `${VIEWER_TOKEN_PREFIX}${newSecretToken()}`;
    const expires = now + VIEWER_TOKEN_TTL_MS;
    await this.deps.tokens.insert({
      token_hash: hashToken(token),
      user_id: caller.user.uuid,
      sid_hash: caller.sidHash,
      namespace_id: study.namespace_id,
      study_uid: study.study_uid,
      created: now,
      expires,
    });
    await this.deps.audit.record(studyEvent(caller, study, 'VIEWER_TOKEN', { expires }));
    return { token, expires };
  }

  /** The live token row and its user; unknown, expired or orphaned tokens answer 401 EXPIRED. */
  async resolve(token: string): Promise<{ row: ViewerTokenRow; scope: ViewerScope }> {
    const now = this.now();
    const row = await this.deps.tokens.find(hashToken(token));
    if (!row || row.expires <= now) throw expired();
    const session = await this.deps.sessions.find(row.sid_hash);
    if (!session || session.expires <= now) throw expired();
    return { row, scope: { namespaceId: row.namespace_id, studyUid: row.study_uid } };
  }

  async userOf(row: ViewerTokenRow) {
    const user = await this.deps.users.findByUuid(row.user_id);
    if (!user || user.status !== 'ACTIVE') throw expired();
    return user;
  }
}
