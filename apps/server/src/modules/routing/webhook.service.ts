import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import {
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_EVENTS,
  WEBHOOK_METHODS,
  WEBHOOK_NAME_MAX_LENGTH,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_URL_MAX_LENGTH,
} from '@imaging-inbox/contract';
import type {
  Webhook,
  WebhookDelivery,
  WebhookDeliveryEvent,
  WebhookEvent,
  WebhookMethod,
  WebhookPayload,
} from '@imaging-inbox/contract';
import { invalidField, missingFields } from '../../domain/errors.js';
import { WEBHOOK_JOB } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { PermanentJobError } from '../../jobs/job-runner.js';
import type { Caller } from '../../policies/index.js';
import { requireAccountAdmin, requireAdministered } from '../../policies/index.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { WebhookDeliveryRow, WebhookRow, WebhooksRepository } from './webhooks.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { auditAdmin, type AdminAudit } from '../../audit/admin-audit.js';
import type { OutboundGuard } from '../../security/outbound-guard.js';
import { OutboundRefused } from '../../security/outbound-guard.js';
import { newUuid } from '../../security/tokens.js';
import { givenFields, ifGiven } from '../../domain/given-fields.js';

export interface WebhookFields {
  name?: string | undefined;
  url?: string | undefined;
  method?: string | undefined;
  event?: WebhookEvent[] | undefined;
  disabled?: 0 | 1 | undefined;
}

interface Deps {
  webhooks: WebhooksRepository;
  jobs: JobQueue;
  audit: AuditService;
  guard: OutboundGuard;
  /** Finds the study an event is about (emitAbout). */
  studies: Pick<StudiesRepository, 'findByUuid'>;
  log: (line: string) => void;
  /** First retry delay; doubles with each attempt. */
  retryMs: number;
  maxAttempts?: number;
  /**
   * How long one attempt may take in all (resolving, connecting, the answer's headers and body):
   * an endpoint that trickles its answer fails at this deadline and is retried like any other.
   */
  deadlineMs?: number;
  now?: () => number;
}

/** Attempts of one delivery before it is marked failed. */
const MAX_ATTEMPTS = 6;

/** The signature header's value for a body sent at `timestamp` (ms): `t=…,v1=<hex HMAC-SHA256>`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * Webhooks of an account (its admins manage them): on the events a webhook names, a JSON body about
 * the study is sent to its URL, signed with its secret (WEBHOOK_SIGNATURE_HEADER), as a durable job
 * retried with back-off; each delivery and its attempts are kept for the admin to read. Targets
 * are checked by the OutboundGuard when saved and again at each connection.
 */
export class WebhookService {
  private readonly now: () => number;

  private readonly admin: AdminAudit<WebhookRow>;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
    this.admin = auditAdmin(deps.audit, 'webhook', auditView);
  }

  /** How the delivery job retries (webhook-job.ts). */
  get retry(): { maxAttempts: number; retryMs: number } {
    return { maxAttempts: this.deps.maxAttempts ?? MAX_ATTEMPTS, retryMs: this.deps.retryMs };
  }

  /** Marks a delivery failed for good: its job ran out of attempts. */
  async giveUp(deliveryUuid: string, error: string): Promise<void> {
    await this.deps.webhooks.updateDelivery(deliveryUuid, {
      status: 'failed',
      last_error: error,
      updated: this.now(),
    });
  }

  async list(caller: Caller, accountId: string): Promise<Webhook[]> {
    requireAccountAdmin(caller, accountId);
    return (await this.deps.webhooks.ofAccount(accountId)).map(presentWebhook);
  }

  async get(caller: Caller, uuid: string): Promise<Webhook> {
    return presentWebhook(requireAdministered(caller, await this.deps.webhooks.find(uuid), 'webhook'));
  }

  async add(caller: Caller, accountId: string, fields: WebhookFields): Promise<Webhook> {
    requireAccountAdmin(caller, accountId);
    const missing = (['name', 'url', 'event'] as const).filter((f) => fields[f] === undefined);
    if (missing.length) throw missingFields(missing);
    const valid = await this.validate(fields);
    const now = this.now();
    const row: WebhookRow = {
      uuid: newUuid(),
      account_id: accountId,
      name: valid.name!,
      url: valid.url!,
      method: valid.method ?? 'POST',
      events: JSON.stringify(valid.event),
      secret: randomBytes(32).toString('hex'),
      disabled: valid.disabled ?? 0,
      created_by: caller.user.uuid,
      created: now,
      updated: now,
    };
    await this.admin.add(caller, row, () => this.deps.webhooks.insert(row));
    return presentWebhook(row);
  }

  async set(caller: Caller, uuid: string, fields: WebhookFields): Promise<Webhook> {
    const row = requireAdministered(caller, await this.deps.webhooks.find(uuid), 'webhook');
    const valid = await this.validate(fields);
    const changes = givenFields({
      name: valid.name,
      url: valid.url,
      method: valid.method,
      events: ifGiven(valid.event, JSON.stringify),
      disabled: valid.disabled,
    });
    const write = (written: typeof changes) => this.deps.webhooks.update(uuid, written);
    return presentWebhook(
      await this.admin.edit(caller, row, changes, write, () => ({ updated: this.now() })),
    );
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const row = requireAdministered(caller, await this.deps.webhooks.find(uuid), 'webhook');
    await this.admin.remove(caller, row, () => this.deps.webhooks.remove(uuid));
  }

  /** A page of a webhook's deliveries, newest first. */
  async deliveries(
    caller: Caller,
    uuid: string,
    number: number,
    rows: number,
  ): Promise<{ deliveries: WebhookDelivery[]; page: { number: number; rows: number; more: 0 | 1 } }> {
    requireAdministered(caller, await this.deps.webhooks.find(uuid), 'webhook');
    const found = await this.deps.webhooks.deliveries(uuid, rows + 1, (number - 1) * rows);
    return {
      deliveries: found.slice(0, rows).map(presentDelivery),
      page: { number, rows, more: found.length > rows ? 1 : 0 },
    };
  }

  /** Queues a delivery of `event` to every enabled webhook of the account that names it. */
  async emit(
    accountId: string,
    event: WebhookEvent,
    study: StudyRow | null,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    const hooks = (await this.deps.webhooks.ofAccount(accountId)).filter(
      (h) => !Number(h.disabled) && (JSON.parse(h.events) as string[]).includes(event),
    );
    for (const hook of hooks) await this.queue(hook, event, study, detail);
  }

  /**
   * An event about a study (a push's end, a nomination, a rejection) from work that must not fail
   * because of webhooks: a problem is logged, never thrown.
   */
  async emitAbout(event: WebhookEvent, studyUuid: string, detail: Record<string, unknown>): Promise<void> {
    try {
      const study = await this.deps.studies.findByUuid(studyUuid);
      if (study) await this.emit(study.account_id, event, study, detail);
    } catch (error) {
      this.deps.log(`Could not queue the ${event} webhooks of study ${studyUuid}: ${String(error)}`);
    }
  }

  /** Queues a delivery to one webhook (a routing rule's action), whatever events it names. */
  async queue(
    hook: WebhookRow,
    event: WebhookDeliveryEvent,
    study: StudyRow | null,
    detail: Record<string, unknown>,
  ): Promise<string> {
    const now = this.now();
    const uuid = newUuid();
    const payload: WebhookPayload = {
      id: uuid,
      event,
      at: new Date(now).toISOString(),
      account_id: hook.account_id,
      study: study
        ? {
            uuid: study.uuid,
            study_uid: study.study_uid,
            namespace_id: study.namespace_id,
            accession_number: study.accession_number,
            modality: study.modality,
            study_description: study.study_description,
          }
        : null,
      detail,
    };
    await this.deps.webhooks.insertDelivery({
      uuid,
      webhook_id: hook.uuid,
      account_id: hook.account_id,
      event,
      study_uuid: study?.uuid ?? null,
      payload: JSON.stringify(payload),
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      created: now,
      updated: now,
    });
    await this.deps.jobs.enqueue(
      WEBHOOK_JOB,
      { delivery: uuid, account: hook.account_id },
      { dedupeKey: `webhook:${uuid}` },
    );
    this.deps.jobs.kick();
    return uuid;
  }

  findForAccount(accountId: string, uuid: string): Promise<WebhookRow | undefined> {
    return this.deps.webhooks.find(uuid).then((h) => (h?.account_id === accountId ? h : undefined));
  }

  /** One attempt of a delivery (the job): a 2xx answer delivers it, anything else is retried. */
  async deliver(uuid: string): Promise<void> {
    const delivery = await this.deps.webhooks.findDelivery(uuid);
    if (!delivery || delivery.status !== 'pending') return;
    const hook = await this.deps.webhooks.find(delivery.webhook_id);
    if (!hook) return;
    const attempts = Number(delivery.attempts) + 1;
    const body = delivery.payload;
    const timestamp = this.now();
    let statusCode: number;
    try {
      statusCode = await this.send(hook, delivery, body, timestamp);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.deps.webhooks.updateDelivery(uuid, {
        attempts,
        last_status_code: null,
        last_error: message,
        updated: this.now(),
        ...(error instanceof OutboundRefused ? { status: 'failed' } : {}),
      });
      // A refused target stays refused: no retry.
      if (error instanceof OutboundRefused) throw new PermanentJobError(message);
      throw error;
    }
    const ok = statusCode >= 200 && statusCode < 300;
    await this.deps.webhooks.updateDelivery(uuid, {
      attempts,
      last_status_code: statusCode,
      last_error: ok ? null : `HTTP ${statusCode}`,
      updated: this.now(),
      ...(ok ? { status: 'delivered' } : {}),
    });
    if (!ok) throw new Error(`HTTP ${statusCode}`);
  }

  /**
   * Sends the signed body; answers the HTTP status. No redirect is followed. The whole exchange has
   * one deadline, so an endpoint sending its answer a byte at a time cannot hold a slot for long.
   */
  private send(
    hook: WebhookRow,
    delivery: WebhookDeliveryRow,
    body: string,
    timestamp: number,
  ): Promise<number> {
    const url = new URL(hook.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An address literal is not looked up, so the guard sees it here.
    const literal = net.isIP(host) ? this.deps.guard.refusal(host, host) : null;
    if (literal) return Promise.reject(new OutboundRefused(literal));
    const client = url.protocol === 'https:' ? https : http;
    const deadlineMs = this.deps.deadlineMs ?? 10_000;
    return new Promise<number>((resolve, reject) => {
      let deadline: NodeJS.Timeout | undefined = undefined;
      const finish = (outcome: () => void) => {
        clearTimeout(deadline);
        outcome();
      };
      const request = client.request(
        url,
        {
          method: hook.method,
          lookup: this.deps.guard.lookup(host),
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Imaging-Inbox-Webhook/1',
            [WEBHOOK_EVENT_HEADER]: delivery.event,
            [WEBHOOK_SIGNATURE_HEADER]: signWebhook(hook.secret, timestamp, body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => finish(() => resolve(response.statusCode ?? 0)));
          response.on('error', (error) => finish(() => reject(error)));
        },
      );
      deadline = setTimeout(() => {
        const error = new Error(`no complete answer within ${deadlineMs} ms`);
        reject(error);
        request.destroy(error);
      }, deadlineMs);
      request.on('error', (error) => {
        // The guard's refusal arrives wrapped by the socket; keep it recognisable.
        const cause = (error as { cause?: unknown }).cause;
        const refused =
          error instanceof OutboundRefused ? error : cause instanceof OutboundRefused ? cause : error;
        finish(() => reject(refused));
      });
      request.end(body);
    });
  }

  private async validate(fields: WebhookFields): Promise<WebhookFields & { method?: WebhookMethod }> {
    const out: WebhookFields & { method?: WebhookMethod } = {};
    if (fields.name !== undefined) {
      const name = fields.name.trim();
      if (!name) throw invalidField('name', 'is required');
      if (name.length > WEBHOOK_NAME_MAX_LENGTH) {
        throw invalidField('name', `at most ${WEBHOOK_NAME_MAX_LENGTH} characters`);
      }
      out.name = name;
    }
    if (fields.url !== undefined) {
      const url = fields.url.trim();
      if (!url) throw invalidField('url', 'is required');
      if (url.length > WEBHOOK_URL_MAX_LENGTH)
        throw invalidField('url', `at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
      const problem = await this.deps.guard.urlProblem(url);
      if (problem) throw invalidField('url', problem);
      out.url = url;
    }
    if (fields.method !== undefined) {
      const method = fields.method.trim().toUpperCase();
      if (!(WEBHOOK_METHODS as readonly string[]).includes(method)) {
        throw invalidField('method', `one of ${WEBHOOK_METHODS.join(', ')}`);
      }
      out.method = method as WebhookMethod;
    }
    if (fields.event !== undefined) {
      if (!fields.event.length) throw invalidField('event', `at least one of ${WEBHOOK_EVENTS.join(', ')}`);
      out.event = fields.event;
    }
    if (fields.disabled !== undefined) out.disabled = fields.disabled;
    return out;
  }
}

/** What the audit keeps of a webhook: never its secret. */
function auditView(row: WebhookRow) {
  return { name: row.name, url: row.url, method: row.method, events: JSON.parse(row.events) as string[] };
}

export function presentWebhook(row: WebhookRow): Webhook {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    name: row.name,
    url: row.url,
    method: row.method as WebhookMethod,
    events: JSON.parse(row.events) as WebhookEvent[],
    secret: row.secret,
    disabled: Number(row.disabled) ? 1 : 0,
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

function presentDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    uuid: row.uuid,
    webhook_id: row.webhook_id,
    event: row.event as WebhookDeliveryEvent,
    study_uuid: row.study_uuid,
    status: row.status as WebhookDelivery['status'],
    attempts: Number(row.attempts),
    last_status_code: row.last_status_code === null ? null : Number(row.last_status_code),
    last_error: row.last_error,
    created: Number(row.created),
    updated: Number(row.updated),
  };
}
