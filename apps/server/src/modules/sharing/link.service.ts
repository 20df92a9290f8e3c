import type { LinkSort, PendingRequest } from '@imaging-inbox/contract';
import { MAX_EMAIL_LENGTH, MAX_LINK_PASSWORD, MAX_SHARE_MESSAGE } from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';
import type { Mail, Mailer } from '../../mail/mailer.js';
import type { Caller } from '../../policies/index.js';
import { linkNamespaces, requireLinkGroup, requireManagedLink } from './links.js';
import type { LinksRepository } from './links.repository.js';
import { callerEvent, type AuditService } from '../../audit/audit.service.js';
import { hashPassword } from '../../security/passwords.js';
import { hashToken, newSecretToken, newUuid } from '../../security/tokens.js';
import { mailTexts } from '../../mail/messages/index.js';
import type { LinkProfiles } from './link-deidentification.js';

export interface NewLink {
  namespaceId: string;
  email: string;
  maxHits: number;
  minutesAlive: number;
  password: string | undefined;
  message: string | undefined;
  notify: boolean;
  mobilePhone: string | undefined;
  shareDescription: string | undefined;
  /** A de-identification profile of the group's account applied to every upload (decision 0071). */
  anonymizationId?: string | undefined;
}

export interface LinkServiceDeps {
  links: LinksRepository;
  mailer: Mailer;
  audit: AuditService;
  publicUrl: string;
  /** The accounts' de-identification profiles (privacy's Deidentifier), for `anonymization_id`. */
  profiles?: LinkProfiles | undefined;
  now?: () => number;
}

/** The requester's side of request-study links: create (and mail), list pending, revoke. */
export class LinkService {
  private readonly now: () => number;
  constructor(private readonly deps: LinkServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  async create(caller: Caller, input: NewLink): Promise<{ uuid: string; url: string }> {
    const group = requireLinkGroup(caller, input.namespaceId);
    refuseOversized(input);
    // Only a profile of the group's own account: another account's reads as a made-up id.
    let profile: { uuid: string; name: string } | undefined;
    if (input.anonymizationId) {
      if (!this.deps.profiles) throw invalidField('anonymization_id', 'de-identification is not available');
      profile = (await this.deps.profiles.bind(group.accountId, input.anonymizationId, 'anonymization_id'))
        .profile;
    }
    const token = newSecretToken();
    const uuid = newUuid();
    const now = this.now();
    const url = `${this.deps.publicUrl}/link/${token}`;
    // The person asked has no account here: they read the requester's language.
    const t = mailTexts(await this.deps.mailer.languages.ofUser(caller.user, group.accountId));
    const requester = caller.user.name;
    const mail: Mail = {
      kind: 'request_link',
      to: input.email,
      subject: t('requestLink.subject', { requester, group: group.name }),
      text: [
        t('requestLink.asks', { requester, requesterEmail: caller.user.email, group: group.name }),
        input.message ? `\n${t('requestLink.message', { message: input.message })}\n` : '',
        t('requestLink.upload', { link: url }),
        input.password ? `\n${t('requestLink.password')}` : '',
        `\n${t('requestLink.validity', { minutes: input.minutesAlive })}`,
      ].join('\n'),
    };
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    await this.deps.links.insert(
      {
        uuid,
        token_hash: hashToken(token),
        account_id: group.accountId,
        namespace_id: group.namespaceId,
        created_by: caller.user.uuid,
        action: 'STUDY_UPLOAD',
        email: input.email,
        message: input.message ?? null,
        password_hash: passwordHash,
        max_hits: input.maxHits,
        minutes_alive: input.minutesAlive,
        notify_on_use: input.notify ? 1 : 0,
        created: now,
        expires: now + input.minutesAlive * 60_000,
        revoked: null,
        mobile_phone: input.mobilePhone ?? null,
        share_description: input.shareDescription ?? null,
        anonymization_id: profile?.uuid ?? null,
      },
      (trx) => this.deps.mailer.queue(mail, trx),
    );
    this.deps.mailer.kick();
    await this.deps.audit.record(
      callerEvent(
        caller,
        group.accountId,
        'LINK_CREATE',
        { type: 'link', id: uuid },
        {
          namespace_id: group.namespaceId,
          email: input.email,
          max_hits: input.maxHits,
          ...(input.mobilePhone ? { mobile_phone: input.mobilePhone } : {}),
          ...(profile ? { deidentified: { profile: profile.uuid, name: profile.name } } : {}),
        },
      ),
    );
    return { uuid, url };
  }

  /** Pending (live) links of the groups where the caller holds link_edit; the token never comes back. */
  async list(caller: Caller, namespaceFilter: string | undefined, sort: LinkSort): Promise<PendingRequest[]> {
    const namespaces = linkNamespaces(caller).filter(
      (id) => namespaceFilter === undefined || id === namespaceFilter,
    );
    const [field, direction] = sort.split('-') as ['created' | 'email', 'asc' | 'desc'];
    const rows = await this.deps.links.list(namespaces, this.now(), { field, direction });
    return rows.map((r) => ({
      uuid: r.uuid,
      message: r.message,
      description: r.message,
      created: r.created,
      minutes_alive: r.minutes_alive,
      email: r.email,
      url: null,
      namespace_id: r.namespace_id,
      namespace_name: r.namespace_name,
      hits: r.hits,
      max_hits: r.max_hits,
      mobile_phone: r.mobile_phone,
      share_description: r.share_description,
    }));
  }

  /** Revokes a link; a link the caller cannot edit answers like a missing one. */
  async revoke(caller: Caller, uuid: string): Promise<void> {
    const link = requireManagedLink(caller, await this.deps.links.findByUuid(uuid));
    if (link.revoked === null) await this.deps.links.revoke(uuid, this.now());
    await this.deps.audit.record(
      callerEvent(caller, link.account_id, 'LINK_REVOKE', { type: 'link', id: uuid }),
    );
  }
}

/**
 * The message goes into a mail and onto the public page, the password through scrypt: the same
 * limits as a share's message, and no megabyte of either.
 */
function refuseOversized(input: NewLink): void {
  if (input.message !== undefined && input.message.length > MAX_SHARE_MESSAGE) {
    throw invalidField('message', `at most ${MAX_SHARE_MESSAGE} characters`);
  }
  if (input.shareDescription !== undefined && input.shareDescription.length > MAX_SHARE_MESSAGE) {
    throw invalidField('share_description', `at most ${MAX_SHARE_MESSAGE} characters`);
  }
  if (input.password !== undefined && input.password.length > MAX_LINK_PASSWORD) {
    throw invalidField('password', `at most ${MAX_LINK_PASSWORD} characters`);
  }
  if (input.email.length > MAX_EMAIL_LENGTH) {
    throw invalidField('email', `at most ${MAX_EMAIL_LENGTH} characters`);
  }
}
