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
