import { z } from 'zod';
import { defineJob } from './job-definition.js';

/**
 * Every kind of durable job the product runs, with the payload each carries. A job is enqueued
 * and claimed through these definitions only (JobQueue, JobRunner), so a payload that does not
 * fit its kind is refused at enqueue instead of failing a runner later.
 */

/** Delivers one outbox row by SMTP (Mailer). */
export const MAIL_JOB = defineJob('mail.deliver', z.object({ mail: z.number().int().positive() }).strict());

/** Delivers one study send: copy to a connection or share code, or the recipient's link mail (SendService). */
export const SEND_JOB = defineJob('study.send', z.object({ send: z.uuid() }).strict());

/** Runs one destination search (C-FIND) and stores what it finds (DestinationSearchJob). */
export const DESTINATION_SEARCH_JOB = defineJob(
  'destination.search',
  z.object({ search: z.uuid() }).strict(),
  (p) => ({ key: `search:${p.search}`, cap: 1 }),
);

/**
 * Retrieves one study from a destination (C-MOVE to our AE) into the search's group
 * (DestinationRetrieveJob). At most two moves per destination at once, across every process, so
 * one user's retrieves do not occupy a PACS's move slots alone.
 */
export const DESTINATION_RETRIEVE_JOB = defineJob(
  'destination.retrieve',
  z.object({ retrieve: z.uuid(), destination: z.uuid() }).strict(),
  (p) => ({ key: `retrieve:${p.destination}`, cap: 2 }),
);

/** Associations one push opens to its destination at once. */
export const PUSH_ASSOCIATIONS = 2;

/**
 * Pushes one attempt of a study to a destination (StudyPushJob). At most two pushes per destination
 * at once across every process (each with PUSH_ASSOCIATIONS associations), so a busy inbox does not
 * take every association a PACS allows.
 */
export const PUSH_JOB = defineJob(
  'study.push',
  z.object({ push: z.uuid(), destination: z.uuid() }).strict(),
  (p) => ({
    key: `push:${p.destination}`,
    cap: 2,
  }),
);

/**
 * Ends a push's storage commitment that got no report by its deadline (decision 0064): enqueued,
 * due at the deadline, when the N-ACTION is sent; a run that finds the commitment settled does nothing.
 */
export const STORAGE_COMMITMENT_EXPIRY_JOB = defineJob(
  'storage-commitment.expire',
  z.object({ transaction: z.string().min(1).max(64) }).strict(),
);

/**
 * Finishes a nomination's processing (write the order's attributes, queue the push) when the call
 * that accepted it did not get that far (the server stopped half-way). Enqueued, due a little
 * later, with the acceptance; a run that finds the push queued does nothing.
 */
export const NOMINATION_PROCESS_JOB = defineJob(
  'nomination.process',
  z.object({ nomination: z.uuid() }).strict(),
);

/**
 * Reads an account's routing rules for a study that arrived (upload, C-STORE once quiet), was
 * shared or sent in, and queues the actions of the rules that match (RoutingEngine).
 */
export const ROUTE_EVALUATE_JOB = defineJob(
  'route.evaluate',
  z.object({ study: z.uuid(), trigger: z.enum(['upload', 'harvest', 'share']) }).strict(),
);

/** Runs one action of one routing rule on one study (RoutingEngine); queued once per (rule, study, action). */
export const ROUTE_ACTION_JOB = defineJob(
  'route.action',
  z
    .object({
      rule: z.uuid(),
      study: z.uuid(),
      action: z.number().int().min(0),
      trigger: z.enum(['upload', 'harvest', 'share', 'manual']),
      /** Who ran it by hand (study/manual/route); the rule's author otherwise. */
      by: z.uuid().optional(),
    })
    .strict(),
);

/**
 * Webhook deliveries of one account running at once, across every process. A process runs up to
 * WEBHOOK_SLOTS of them (JOB_CONCURRENCY may say more), so one account's slow endpoints can hold
 * at most this many and never every slot: another account's deliveries still go out.
 */
export const WEBHOOK_SLOTS_PER_ACCOUNT = 2;
/** Webhook deliveries one process runs at once unless JOB_CONCURRENCY says otherwise. */
export const WEBHOOK_SLOTS = 4;

/**
 * Delivers one webhook delivery (WebhookService): a signed HTTP request, retried with back-off.
 * `account` keys the per-account cap; a job queued before it existed is capped on its own.
 */
export const WEBHOOK_JOB = defineJob(
  'webhook.deliver',
  z.object({ delivery: z.uuid(), account: z.string().min(1).max(64).optional() }).strict(),
  (p) =>
    p.account
      ? { key: `webhook-account:${p.account}`, cap: WEBHOOK_SLOTS_PER_ACCOUNT }
      : { key: `webhook:${p.delivery}`, cap: 1 },
);

/**
 * Sends the queued audit events to the security team's syslog collector, oldest first, until the
 * queue is empty (AtnaSender, decision 0068). One at a time across every process, so messages
 * leave in order; a collector that does not answer fails the attempt, retried with back-off.
 */
export const ATNA_SEND_JOB = defineJob('atna.send', z.object({}).strict(), () => ({ key: 'atna', cap: 1 }));
