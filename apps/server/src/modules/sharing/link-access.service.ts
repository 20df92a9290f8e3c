import type { AuditAction } from '@imaging-inbox/contract';
import { DomainError } from '../../domain/errors.js';
import type { Mail, Mailer } from '../../mail/mailer.js';
import type { LinkRow, LinksRepository, LinkWithNames } from './links.repository.js';
import { visitorEvent, type AuditService } from '../../audit/audit.service.js';
import { verifyPassword } from '../../security/passwords.js';
import type { PublicLinkGuardDeps } from './public-link-guard.js';
import { noLink, PublicLinkGuard } from './public-link-guard.js';
import { hashToken } from '../../security/tokens.js';
import { mailTexts } from '../../mail/messages/index.js';
import { DEFAULT_LANGUAGE, type Language } from '@imaging-inbox/contract';

export interface LinkAccessDeps extends PublicLinkGuardDeps {
  links: LinksRepository;
  mailer: Mailer;
  audit: AuditService;
}

/**
 * The outside party's side of a request-study link, reached without an account: read what the link
 * asks for, unlock it (password when set) for a short-lived upload grant, and check that grant on
 * every uploaded file. Each grant is one upload session and counts one hit of the link.
 */
export class LinkAccessService {
  private readonly guard: PublicLinkGuard;

  constructor(private readonly deps: LinkAccessDeps) {
    this.guard = new PublicLinkGuard(deps);
  }

  async info(token: string, ip: string): Promise<LinkWithNames> {
    return this.usableLink(token, ip);
  }

  async unlock(token: string, password: string, ip: string): Promise<{ grant: string; expires: number }> {
    const link = await this.usableLink(token, ip);
    const now = this.guard.now();
    if (link.password_hash) {
      const right = await this.guard.proves(`link:${link.uuid}`, `linkip:${ip}`, now, () =>
        verifyPassword(password, link.password_hash!),
      );
      if (!right) {
        await this.audit(link, 'LINK_USE', ip, 'FAILURE', { reason: 'bad_password' });
        throw new DomainError('BAD_PASSWORD');
      }
    }
    // The requester's "link was used" mail is queued with the first hit, in its transaction.
    const language =
      link.notify_on_use === 1
        ? await this.deps.mailer.languages.ofUserId(link.created_by, link.account_id)
        : DEFAULT_LANGUAGE;
    const hits = await this.deps.links.claimHit(link.uuid, now, async (trx, count) => {
      if (count === 1 && link.notify_on_use === 1)
        await this.deps.mailer.queue(usedMail(link, language), trx);
    });
    if (hits === undefined) throw noLink();
    const { grant, expires } = await this.guard.issueGrant(now, link.expires, ip, (row) =>
      this.deps.links.insertGrant({ ...row, link_uuid: link.uuid }),
    );
    await this.audit(link, 'LINK_USE', ip, 'SUCCESS', { hits });
    if (hits === 1 && link.notify_on_use === 1) this.deps.mailer.kick();
    return { grant, expires };
  }

  /** The link an upload grant belongs to, as long as the grant and the link are both still live. */
  async authorizeUpload(grant: string): Promise<LinkRow> {
    const now = this.guard.now();
    const row = await this.deps.links.findGrant(hashToken(grant));
    if (!row || row.expires <= now) throw noLink();
    const link = await this.deps.links.findByUuid(row.link_uuid);
    if (!link || link.revoked !== null || link.expires <= now) throw noLink();
    return link;
  }

  private usableLink(token: string, ip: string): Promise<LinkWithNames> {
    return this.guard.open(
      token,
      `linkip:${ip}`,
      (tokenHash) => this.deps.links.findByTokenHash(tokenHash),
      (link, now) =>
        link.revoked === null && link.expires > now && link.hits < link.max_hits ? link : undefined,
    );
  }

  private audit(
    link: LinkRow,
    action: AuditAction,
    ip: string,
    outcome: 'SUCCESS' | 'FAILURE',
    detail: Record<string, unknown>,
  ): Promise<void> {
    const object = { type: 'link', id: link.uuid };
    return this.deps.audit.record(visitorEvent(link.account_id, action, object, ip, outcome, detail));
  }
}

/** Tells the requester their link was opened (once, on its first use, when they asked for it). */
function usedMail(link: LinkWithNames, language: Language): Mail {
  const t = mailTexts(language);
  return {
    kind: 'request_link_used',
    to: link.requester_email,
    subject: t('requestLinkUsed.subject', { email: link.email }),
    text: t('requestLinkUsed.body', { email: link.email, group: link.namespace_name }),
  };
}
