import type { AuditAction } from '@imaging-inbox/contract';
import { randomInt } from 'node:crypto';
import type { SendLinkStudyAnswer } from '@imaging-inbox/contract';
import { SEND_CODE_LENGTH, SEND_CODE_TTL_MS } from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { SendRow, SendsRepository } from './sends.repository.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import { visitorEvent, type AuditService } from '../../audit/audit.service.js';
import type { DownloadPlan, DownloadService } from '../studies/index.js';
import type { PublicLinkGuardDeps } from './public-link-guard.js';
import { noLink, PublicLinkGuard } from './public-link-guard.js';
import { hashToken } from '../../security/tokens.js';
import { mailTexts } from '../../mail/messages/index.js';

/** `limits`: the request-link limits, wrong codes counting as wrong passwords do. */
export interface SendAccessDeps extends PublicLinkGuardDeps {
  sends: SendsRepository;
  studies: StudiesRepository;
  users: UsersRepository;
  accounts: AccountsRepository;
  downloads: DownloadService;
  mailer: Mailer;
  audit: AuditService;
}

/**
 * The e-mailed recipient's side of a send, reached without an account. The link token (256 bits,
 * stored hashed) only shows who sent something; to see the study the recipient proves they read
 * that mailbox with a one-time code mailed to it (stored hashed, 10 minutes, one use), which
 * yields a short-lived grant (256 bits, hashed) for the summary and the ZIP download, within the
 * link's lifetime. Unknown tokens count against the address, wrong codes against the link, in
 * the same failure table as sign-ins and request links, so every process sees the same counts.
 */
export class SendAccessService {
  private readonly guard: PublicLinkGuard;

  constructor(private readonly deps: SendAccessDeps) {
    this.guard = new PublicLinkGuard(deps);
  }

  async info(token: string, ip: string) {
    const { send } = await this.usable(token, ip);
    const [sender, account] = await Promise.all([
      this.deps.users.findByUuid(send.created_by),
      this.deps.accounts.findAccount(send.account_id),
    ]);
    return {
      sender_name: sender?.name ?? '',
      organization: account?.name ?? '',
      message: send.message,
      email_hint: maskEmail(send.email!),
      expires: Number(send.expires),
    };
  }

  /** Mails a fresh one-time code to the send's address (a few per window per link). */
  async requestCode(token: string, ip: string): Promise<void> {
    const { send } = await this.usable(token, ip);
    const now = this.guard.now();
    const codesKey = `sendcode:${send.uuid}`;
    // Counted before the mail is queued, so requests sent together cannot mail more codes than the limit.
    await this.guard.attempts.reserve(codesKey, this.guard.limits.perLink, now);
    const code = String(randomInt(0, 10 ** SEND_CODE_LENGTH)).padStart(SEND_CODE_LENGTH, '0');
    // The reader has no account here: the code comes in the language of the mail that brought the link.
    const t = mailTexts(await this.deps.mailer.languages.ofUserId(send.created_by, send.account_id));
    await this.deps.sends.setCode(send.uuid, codeHash(send, code), now + SEND_CODE_TTL_MS, (trx) =>
      this.deps.mailer.queue(
        {
          kind: 'send_code',
          to: send.email!,
          subject: t('sendCode.subject'),
          text: t('sendCode.body', { code, minutes: SEND_CODE_TTL_MS / 60_000 }),
        },
        trx,
      ),
    );
    this.deps.mailer.kick();
    await this.audit(send, 'SEND_LINK_CODE', ip, 'SUCCESS', {});
  }

  async verify(token: string, code: string, ip: string): Promise<{ grant: string; expires: number }> {
    const { send } = await this.usable(token, ip);
    const now = this.guard.now();
    const ok = await this.guard.proves(`sendverify:${send.uuid}`, `sendip:${ip}`, now, () =>
      Promise.resolve(
        send.code_hash !== null &&
          send.code_expires !== null &&
          Number(send.code_expires) > now &&
          codeHash(send, code.trim()) === send.code_hash,
      ),
    );
    if (!ok) {
      await this.audit(send, 'SEND_LINK_VERIFY', ip, 'FAILURE', { reason: 'bad_code' });
      throw invalidField('code', 'wrong or expired code');
    }
    // One use: the code is gone once it opened a grant.
    await this.deps.sends.setCode(send.uuid, null, null);
    const { grant, expires } = await this.guard.issueGrant(now, Number(send.expires), ip, (row) =>
      this.deps.sends.insertGrant({ ...row, send_uuid: send.uuid }),
    );
    await this.audit(send, 'SEND_LINK_VERIFY', ip, 'SUCCESS', {});
    return { grant, expires };
  }

  async study(grant: string, ip: string): Promise<Omit<SendLinkStudyAnswer, 'status'>> {
    const { send, study } = await this.granted(grant);
    const via = { send: send.uuid, email: send.email };
    const object = { type: 'study', id: study.uuid };
    await this.deps.audit.record(
      visitorEvent(study.account_id, 'STUDY_VIEW', object, ip, 'SUCCESS', { via }),
    );
    return {
      study: {
        patient_name: study.patient_name,
        patientid: study.patientid,
        patient_birth_date: study.patient_birth_date,
        patient_sex: study.patient_sex,
        study_date: study.study_date,
        study_description: study.study_description,
        accession_number: study.accession_number,
        modality: study.modality,
        image_count: Number(study.image_count),
        series_count: Number(study.series_count),
      },
      message: send.message,
      expires: Number(send.expires),
    };
  }

  async download(grant: string, ip: string): Promise<DownloadPlan> {
    const { send, study } = await this.granted(grant);
    return this.deps.downloads.planForRecipient(study, { send: send.uuid, email: send.email }, ip);
  }

  private async granted(grant: string): Promise<{ send: SendRow; study: StudyRow }> {
    const now = this.guard.now();
    const row = grant ? await this.deps.sends.findGrant(hashToken(grant)) : undefined;
    if (!row || Number(row.expires) <= now) throw noLink();
    const send = await this.deps.sends.find(row.send_uuid);
    const study = send ? await this.live(send, now) : undefined;
    if (!send || !study) throw noLink();
    return { send, study };
  }

  private usable(token: string, ip: string): Promise<{ send: SendRow; study: StudyRow }> {
    return this.guard.open(
      token,
      `sendip:${ip}`,
      (tokenHash) => this.deps.sends.byTokenHash(tokenHash),
      async (send, now) => {
        const study = await this.live(send, now);
        return study && { send, study };
      },
    );
  }

  /** The sent study while the link lives: sent (not cancelled), not expired, study not deleted. */
  private async live(send: SendRow, now: number): Promise<StudyRow | undefined> {
    if (send.status !== 'sent' || send.expires === null || Number(send.expires) <= now) return undefined;
    const study = await this.deps.studies.findByUuid(send.study_uuid);
    return study && study.deleted === null ? study : undefined;
  }

  private async audit(
    send: SendRow,
    action: AuditAction,
    ip: string,
    outcome: 'SUCCESS' | 'FAILURE',
    detail: Record<string, unknown>,
  ): Promise<void> {
    const object = { type: 'send', id: send.uuid };
    const withEmail = { email: send.email, ...detail };
    await this.deps.audit.record(visitorEvent(send.account_id, action, object, ip, outcome, withEmail));
  }
}

/** Bound to the send, so a code never opens another link. */
function codeHash(send: SendRow, code: string): string {
  return hashToken(`${send.uuid}:${code}`);
}

/** `c***@example.org`: enough for the recipient to recognise, little for a finder of the link. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
