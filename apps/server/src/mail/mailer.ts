import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { MAIL_JOB } from '../jobs/job-kinds.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { PermanentJobError } from '../jobs/job-runner.js';
import type { OutboxRepository } from '../repositories/outbox.repository.js';
import type { MailLanguages } from './mail-language.js';

/** What a mail is about; kept on its outbox row for the record. */
export type MailKind =
  | 'password_reset'
  | 'two_factor_reset'
  | 'user_invite'
  | 'request_link'
  | 'request_link_used'
  | 'share'
  | 'nomination'
  | 'send_link'
  | 'send_code'
  | 'harvest';

export interface Mail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
}

/** What the mail job needs of an SMTP client (nodemailer's transport has it). */
export interface MailTransport {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    messageId: string;
  }): Promise<unknown>;
}

export interface MailerDeps {
  outbox: OutboxRepository;
  /** Every mail is written in its reader's language; the services that compose mails ask here. */
  languages: MailLanguages;
  jobs: JobQueue;
  smtpUrl: string | undefined;
  from: string;
  /** Delay before the first retry; each further retry waits twice as long (capped at an hour). */
  retryMs: number;
  maxAttempts: number;
  /** Our host name for Message-IDs (the public URL's host). */
  host: string;
  transport?: MailTransport;
  now?: () => number;
}

/**
 * Mail goes through the outbox (the transactional outbox pattern). queue() writes the mail as a
 * row, with its delivery job, in the caller's transaction: the mail exists exactly when the
 * change it tells about was committed, and the request never waits for SMTP. The job (one per
 * row, deduplicated by the row id) sends it with retries and backoff and marks it sent, or failed
 * after an SMTP 5xx answer or its last attempt. Each mail has a Message-ID made from its row, so
 * the one case that can still repeat it (the process dies after the SMTP server accepted the mail
 * and before the row says sent) is recognisable as a duplicate by the receiving side.
 *
 * Without an SMTP URL the row itself is the mail (state local; the dev outbox page shows it).
 */
export class Mailer {
  private readonly transport: MailTransport | undefined;
  private readonly now: () => number;
  readonly languages: MailLanguages;

  constructor(private readonly deps: MailerDeps) {
    this.now = deps.now ?? Date.now;
    this.languages = deps.languages;
    this.transport =
      deps.transport ??
      (deps.smtpUrl
        ? nodemailer.createTransport({
            url: deps.smtpUrl,
            // A stuck server must not hold the job past its lease (5 minutes).
            connectionTimeout: 15_000,
            greetingTimeout: 15_000,
            socketTimeout: 60_000,
          })
        : undefined);
  }

  /**
   * Writes the mails with their delivery jobs. Pass the transaction of the change they belong to
   * as `db`, and call kick() once it committed; without `db` they are written (and kicked) at once.
   */
  async queue(mails: Mail | Mail[], db?: Kysely<Database>): Promise<void> {
    const list = Array.isArray(mails) ? mails : [mails];
    const now = this.now();
    for (const mail of list) {
      const id = await this.deps.outbox.insert(
        { to_address: mail.to, subject: mail.subject, body: mail.text, kind: mail.kind, created: now },
        this.transport ? 'queued' : 'local',
        db,
      );
      if (this.transport) {
        await this.deps.jobs.enqueue(MAIL_JOB, { mail: id }, { runAt: now, dedupeKey: `mail:${id}` }, db);
      }
    }
    if (!db && list.length) this.kick();
  }

  /** Tells the job runner mail is due (after the transaction that queued it committed). */
  kick(): void {
    if (this.transport) this.deps.jobs.kick();
  }

  /** How the delivery job retries (mail-delivery-job.ts): MAIL_MAX_ATTEMPTS, MAIL_RETRY_MS. */
  get retry(): { maxAttempts: number; retryMs: number } {
    return { maxAttempts: this.deps.maxAttempts, retryMs: this.deps.retryMs };
  }

  /** Marks an outbox row failed for good: its delivery job ran out of attempts. */
  giveUp(id: number, error: string): Promise<void> {
    return this.deps.outbox.markFailed(id, error);
  }

  /** Sends one outbox row by SMTP (the mail.deliver job, mail-delivery-job.ts). */
  async deliver(id: number): Promise<void> {
    const row = await this.deps.outbox.find(id);
    // Sent by an earlier claim of this job, or not ours to send.
    if (!row || row.state !== 'queued' || !this.transport) return;
    await this.deps.outbox.noteAttempt(id);
    try {
      await this.transport.sendMail({
        from: this.deps.from,
        to: row.to_address,
        subject: row.subject,
        text: row.body,
        messageId: `<outbox-${id}.${Number(row.created)}@${this.deps.host}>`,
      });
    } catch (error) {
      const reason = smtpReason(error);
      await this.deps.outbox.noteError(id, reason);
      // A 5xx answer is the server's final word on this mail: retrying cannot help.
      if (isPermanent(error)) throw new PermanentJobError(reason);
      throw new Error(reason, { cause: error });
    }
    await this.deps.outbox.markSent(id, this.now());
  }
}

function responseCode(error: unknown): number | undefined {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' ? code : undefined;
}

function isPermanent(error: unknown): boolean {
  const code = responseCode(error);
  return code !== undefined && code >= 500 && code < 600;
}

/**
 * The error as recorded and logged: the SMTP reply or the connection error, never the message
 * itself (its body can hold a link token).
 */
function smtpReason(error: unknown): string {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  if (typeof e?.responseCode === 'number')
    return `SMTP ${e.responseCode}: ${String(e.response ?? '').slice(0, 300)}`;
  return `${e?.code ?? 'ERROR'}: ${String(e?.message ?? error).slice(0, 300)}`;
}
