import type { z } from 'zod';

/**
 * How many jobs sharing one key may run at once, across every process (say two pushes to one PACS
 * destination, whatever the number of runners). The key and cap are computed at enqueue and stored
 * with the job, so a claim can count the running jobs of that key in SQL.
 */
export interface ConcurrencyLimit {
  key: string;
  cap: number;
}

/** One kind of durable job: its name in the `jobs` table and the schema of its payload. */
export interface JobDefinition<P> {
  kind: string;
  payload: z.ZodType<P>;
  /** The per-key limit of a job, e.g. `push:<destination uuid>`; none by default. */
  limit?(payload: P): ConcurrencyLimit | undefined;
}

/** Declares a job kind; its payload is checked against the schema when enqueued and when claimed. */
export function defineJob<S extends z.ZodType>(
  kind: string,
  payload: S,
  limit?: (payload: z.output<S>) => ConcurrencyLimit | undefined,
): JobDefinition<z.output<S>> {
  return { kind, payload: payload as unknown as z.ZodType<z.output<S>>, ...(limit ? { limit } : {}) };
}

/** A payload that does not match its kind's schema: a bug in the caller, refused before any row is written. */
export class InvalidJobPayloadError extends Error {}

/** The payload parsed against its kind's schema, or InvalidJobPayloadError naming the fields. */
export function parsePayload<P>(definition: JobDefinition<P>, payload: unknown): P {
  const parsed = definition.payload.safeParse(payload);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`);
  throw new InvalidJobPayloadError(`Invalid ${definition.kind} payload: ${fields.join('; ')}`);
}
