import type { SendAnswer, SendStatus, SendTargetParam } from '@imaging-inbox/contract';
import { DELAYED_SEND_MS, MAX_SHARE_MESSAGE, SEND_LINK_TTL_MS, emailSchema } from '@imaging-inbox/contract';
import { DomainError, invalidField, missingFields, notFound } from '../../domain/errors.js';
import { SEND_JOB } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { PermanentJobError } from '../../jobs/job-runner.js';
import type { Mail, Mailer } from '../../mail/mailer.js';
import type { Caller } from '../../policies/index.js';
import { requireAccountMember, requireStudy } from '../../policies/index.js';
import type { SendRow, SendsRepository } from './sends.repository.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import { auditEvent, studyEvent, type Actor, type AuditService } from '../../audit/audit.service.js';
import { hashToken, newSecretToken, newUuid } from '../../security/tokens.js';
import { mailDate, mailTexts } from '../../mail/messages/index.js';

/** Whom a send goes to, as study/share names it: account_id, share_code or email. */
/** The send named by study/share's account_id, share_code or email (parsed by the contract's schema). */
export type SendRequest = SendTargetParam;

const PERMISSION = {
  account: 'study_share_account',
  share_code: 'study_share_share_code',
  email: 'study_share_email',
} as const;

export interface SendDeps {
  sends: SendsRepository;
  studies: StudiesRepository;
  users: UsersRepository;
  jobs: JobQueue;
  mailer: Mailer;
  audit: AuditService;
  publicUrl: string;
  /** Told of each copy delivered into another group (routing, webhooks). */
  onDelivered?: (copyUuid: string) => Promise<void>;
  now?: () => number;
}

/**
 * Sending a study out of its group (SPEC "Send exams"): to a connection (another account's
 * receiving group), to the group a share code names, or by e-mail (a link the recipient opens
 * after verifying their address, see SendAccessService). Every send is a row and a durable job,
 * run now or after DELAYED_SEND_MS, cancellable until the job delivers it. Connection and
 * share-code sends copy the study's index rows into the target namespace (same blob files).
 *
 * A copy delivered to a connection or share code is then routed by the receiving account's rules
 * (their "on share" trigger), as a share into the group would be.
 */
export class SendService {
  private readonly now: () => number;
  constructor(private readonly deps: SendDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Marks a send failed for good and audits why: its delivery job ran out of attempts. */
  async giveUp(sendUuid: string, error: string): Promise<void> {
    const send = await this.deps.sends.find(sendUuid);
    if (!send) return;
    await this.deps.sends.markFailed(send.uuid, this.now());
    await this.auditDelivery(send, 'FAILURE', { error });
  }

  async connections(caller: Caller, accountId: string) {
    requireAccountMember(caller, accountId);
    const rows = await this.deps.sends.connections(accountId);
    return {
      connections: rows.map((r) => ({
        uuid: r.uuid,
        name: r.name,
        namespace_name: r.namespace_name,
        organization: r.organization,
      })),
    };
  }

  /** Whom a share code reaches (namespace/share_code with share_code). */
  async lookup(rawCode: string) {
    const code = rawCode.trim().toUpperCase();
    if (!code) throw missingFields(['share_code']);
    const target = await this.deps.sends.byShareCode(code);
    if (!target) throw new DomainError('NAMESPACE_NOT_FOUND');
    return {
      namespace_id: target.namespace_id,
      name: target.name,
      organization: target.organization,
      description: target.description,
      share_code: code,
    };
  }

  async send(
    caller: Caller,
    row: StudyRow,
    request: SendRequest,
    options: { message: string | undefined; delayed: boolean },
  ): Promise<Omit<SendAnswer, 'status'>> {
    requireStudy(caller, row, { permissions: ['study_share', PERMISSION[request.method]], unlocked: true });
    return this.create(row, request, { ...options, userId: caller.user.uuid, ip: caller.ip });
  }

  /**
   * A routing rule's "send by share code" or "to a connection": the same send and job, on behalf of
   * the rule's author (`userId`), as the admin who wrote the rule allowed it.
   */
  async sendByRule(
    row: StudyRow,
    request: Extract<SendRequest, { method: 'account' | 'share_code' }>,
    userId: string,
    detail: Record<string, unknown>,
  ): Promise<Omit<SendAnswer, 'status'>> {
    return this.create(row, request, { message: undefined, delayed: false, userId, ip: null, detail });
  }

  private async create(
    row: StudyRow,
    request: SendRequest,
    options: {
      message: string | undefined;
      delayed: boolean;
      userId: string;
      ip: string | null;
      detail?: Record<string, unknown>;
    },
  ): Promise<Omit<SendAnswer, 'status'>> {
    const message = options.message?.trim() || null;
    if (message && message.length > MAX_SHARE_MESSAGE) {
      throw invalidField('message', `at most ${MAX_SHARE_MESSAGE} characters`);
    }
    const delayed = options.delayed;
    const now = this.now();

    let targetNamespace: string | null = null;
    let connectionId: string | null = null;
    let email: string | null = null;
    if (request.method === 'account') {
      const connection = await this.deps.sends.connection(row.account_id, request.connection);
      if (!connection) throw notFound('connection');
      targetNamespace = connection.target_namespace_id;
      connectionId = connection.uuid;
    } else if (request.method === 'share_code') {
      const target = await this.deps.sends.byShareCode(request.code.toUpperCase());
      if (!target) throw new DomainError('NAMESPACE_NOT_FOUND', 'share_code');
      targetNamespace = target.namespace_id;
    } else {
      const parsed = emailSchema.safeParse(request.email);
      if (!parsed.success) throw invalidField('email', 'not a valid e-mail address');
      email = parsed.data.toLowerCase();
    }
    if (targetNamespace === row.namespace_id)
      throw invalidField(request.method, 'the study is already there');

    const send: SendRow = {
      uuid: newUuid(),
      study_uuid: row.uuid,
      account_id: row.account_id,
      method: request.method,
      target_namespace_id: targetNamespace,
      connection_id: connectionId,
      email,
      message,
      status: 'scheduled',
      run_at: delayed ? now + DELAYED_SEND_MS : now,
      job_id: null,
      copy_uuid: null,
      token_hash: null,
      expires: null,
      code_hash: null,
      code_expires: null,
      created_by: options.userId,
      created: now,
      updated: now,
    };
    await this.deps.sends.create(send);
    const jobId = await this.deps.jobs.enqueue(
      SEND_JOB,
      { send: send.uuid },
      { runAt: send.run_at, dedupeKey: `send:${send.uuid}` },
    );
    await this.deps.sends.setJob(send.uuid, jobId);
    await this.deps.audit.record(
      sendEvent(options, send, 'CREATE', {
        target_namespace_id: targetNamespace,
        connection_id: connectionId,
        email,
        message,
        delayed,
        run_at: send.run_at,
        ...options.detail,
      }),
    );
    if (!delayed) this.deps.jobs.kick();
    return { send_id: send.uuid, send_status: 'scheduled', run_at: send.run_at };
  }

  /** The send if the caller may manage it: they can view its study and share it. */
  private async manageable(caller: Caller, sendUuid: string): Promise<SendRow> {
    const send = await this.deps.sends.find(sendUuid);
    const study = send ? await this.deps.studies.findByUuid(send.study_uuid) : undefined;
    requireStudy(caller, study, { permissions: ['study_share'], unseen: () => notFound('send') });
    return send!;
  }

  async cancel(caller: Caller, sendUuid: string): Promise<{ send_status: SendStatus }> {
    const send = await this.manageable(caller, sendUuid);
    const now = this.now();
    // The send row is the guard: the job delivers only a send still scheduled, in one transaction.
    if (!(await this.deps.sends.cancel(send.uuid, now))) {
      throw new DomainError('ALREADY_SENT', send.status);
    }
    if (send.job_id !== null) await this.deps.jobs.cancel(Number(send.job_id));
    await this.deps.audit.record(sendEvent(caller, send, 'DELETE'));
    return { send_status: 'cancelled' };
  }

  async list(row: StudyRow) {
    const rows = await this.deps.sends.list(row.uuid);
    return {
      sends: rows.map((r) => ({
        uuid: r.uuid,
        method: r.method,
        target:
          r.method === 'email'
            ? (r.email ?? '')
            : [r.organization, r.namespace_name].filter(Boolean).join(' / '),
        message: r.message,
        status: r.status,
        run_at: Number(r.run_at),
        created: Number(r.created),
      })),
    };
  }

  /** Runs one send (the job): copy into the target namespace, or mail the recipient their link. */
  /** Delivers one send (the study.send job, send-job.ts). */
  async deliver(sendUuid: string): Promise<void> {
    const send = await this.deps.sends.find(sendUuid);
    // Cancelled (or already delivered by an earlier attempt): nothing to do.
    if (!send || send.status !== 'scheduled') return;
    const original = await this.deps.studies.findByUuid(send.study_uuid);
    if (!original || original.deleted !== null) throw new PermanentJobError('the study is gone');
    const now = this.now();
    if (send.method === 'email') {
      const token = newSecretToken();
      const expires = now + SEND_LINK_TTL_MS;
      const sender = await this.deps.users.findByUuid(send.created_by);
      // The recipient is an address, not a user here: they read the sender's language.
      const language = await this.deps.mailer.languages.ofUser(sender, send.account_id);
      const t = mailTexts(language);
      const senderName = sender?.name ?? t('sendLink.someone');
      const mail: Mail = {
        kind: 'send_link',
        to: send.email!,
        subject: t('sendLink.subject', { sender: senderName }),
        text: [
          t('sendLink.sent', { sender: senderName }),
          ...(send.message ? ['', t('sendLink.message', { message: send.message })] : []),
          '',
          t('sendLink.open'),
          `${this.deps.publicUrl}/send/${token}`,
          '',
          t('sendLink.until', { date: mailDate(language, expires) }),
        ].join('\n'),
      };
      // The send becomes sent and its mail is queued in one transaction: a retried job cannot
      // mail a second link, and a mail always has its send.
      const delivered = await this.deps.sends.deliverLink(send.uuid, hashToken(token), expires, now, (trx) =>
        this.deps.mailer.queue(mail, trx),
      );
      if (delivered) {
        this.deps.mailer.kick();
        await this.auditDelivery(send, 'SUCCESS', { expires });
      }
      return;
    }
    const target = await this.deps.sends.byNamespace(send.target_namespace_id!);
    if (!target) throw new PermanentJobError('the target group is gone');
    const copy = await this.deps.sends.deliverCopy(
      send,
      original,
      { namespaceId: target.namespace_id, accountId: target.account_id },
      now,
    );
    if (copy) {
      await this.auditDelivery(send, 'SUCCESS', { copy_uuid: copy, target_account_id: target.account_id });
      // The receiving group's routing rules and webhooks hear of the study as of a share into it.
      await this.deps.onDelivered?.(copy);
    }
  }

  private async auditDelivery(
    send: SendRow,
    outcome: 'SUCCESS' | 'FAILURE',
    detail: Record<string, unknown>,
  ) {
    await this.deps.audit.record(
      studyEvent(
        { userId: send.created_by },
        { uuid: send.study_uuid, account_id: send.account_id },
        'STUDY_SEND',
        { send: send.uuid, method: send.method, target_namespace_id: send.target_namespace_id, ...detail },
        outcome,
      ),
    );
  }
}

/** A send made or cancelled: about the study sent, its detail first naming the send and its method. */
function sendEvent(
  actor: Actor,
  send: SendRow,
  action: 'CREATE' | 'DELETE',
  more: Record<string, unknown> = {},
) {
  const detail = { send: send.uuid, method: send.method, ...more };
  return auditEvent(actor, send.account_id, action, { type: 'send', id: send.study_uuid }, { detail });
}
