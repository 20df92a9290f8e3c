import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidJobPayloadError, defineJob } from '../../src/jobs/job-definition.js';
import { JobRunner, LeaseLostError } from '../../src/jobs/job-runner.js';
import type { Dialect } from '../support/test-server.js';
import { jobDatabase } from '../support/job-database.js';
import { DIALECTS } from '../support/test-server.js';
import { eventually } from '../support/until.js';

const quiet = () => undefined;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Runners poll every 20 ms with 300 ms leases: look as often.
const POLL_MS = 20;

/** A promise and the function that settles it, to hold a job until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const numbered = (kind: string) => defineJob(kind, z.object({ n: z.number().int() }));

describe.each(DIALECTS)('job leases, slots and payloads on %s', (dialect: Dialect) => {
  const database = jobDatabase(dialect, 'job-leases-test-');
  const connect = database.connect;
  beforeAll(database.setUp);
  afterAll(database.tearDown);

  it('runs a job that outlasts its lease exactly once, with two runners polling for it', async () => {
    const LONG = numbered('long.test');
    const a = connect();
    const b = connect();
    const ids = [await a.queue.enqueue(LONG, { n: 1 }), await a.queue.enqueue(LONG, { n: 2 })];
    const runs: string[] = [];
    const handler = (name: string) => ({
      job: LONG,
      run: async (payload: { n: number }) => {
        runs.push(`${name}:${payload.n}`);
        // Four leases long: without renewal the other runner would claim it after the first.
        await sleep(1_200);
      },
    });
    const runners = [
      new JobRunner({ jobs: a.jobs, log: quiet, pollMs: 20, leaseMs: 300 }).register(handler('a')),
      new JobRunner({ jobs: b.jobs, log: quiet, pollMs: 20, leaseMs: 300 }).register(handler('b')),
    ];
    for (const r of runners) r.start();
    await eventually(
      async () => (await Promise.all(ids.map((id) => a.jobs.find(id)))).every((j) => j?.status === 'done'),
      'both jobs done',
      15_000,
      POLL_MS,
    );
    // Two more leases of polling: a lease left to run out would be claimed again by now.
    await sleep(600);
    await Promise.all(runners.map((r) => r.stop()));
    expect(runs.map((r) => r.split(':')[1]).sort()).toEqual(['1', '2']);
    for (const id of ids) expect(await a.jobs.find(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('aborts a job whose lease another runner took over, and records nothing of its run', async () => {
    const LOST = numbered('lost.test');
    const a = connect();
    const thief = connect();
    const id = await a.queue.enqueue(LOST, { n: 1 });
    const started = gate();
    let reason: unknown;
    let failedCalls = 0;
    const runner = new JobRunner({ jobs: a.jobs, log: quiet, pollMs: 20, leaseMs: 300 }).register({
      job: LOST,
      maxAttempts: 1,
      run: async (_payload, _job, signal) => {
        started.open();
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        reason = signal.reason;
        // Had it been recorded, this last attempt would fail the job for good and call onFailed.
        throw new Error('stopped');
      },
      onFailed: () => {
        failedCalls++;
        return Promise.resolve();
      },
    });
    runner.start();
    await started.opened;
    // As if this runner had stalled past its lease: the lease runs out and another runner claims it.
    await thief.db.kysely.updateTable('jobs').set({ locked_until: 0 }).where('id', '=', id).execute();
    const taken = await thief.jobs.claim([LOST.kind], Date.now(), 60_000);
    expect(taken).toMatchObject({ id, attempts: 2 });
    await eventually(() => reason !== undefined, 'the lease lost', 15_000, POLL_MS);
    await runner.stop();
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(failedCalls).toBe(0);
    expect(await a.jobs.find(id)).toMatchObject({ status: 'running', attempts: 2, last_error: null });
    // The runner holding the lease now finishes the job.
    expect(await thief.jobs.complete(taken!, Date.now())).toBe(true);
    expect((await a.jobs.find(id))?.status).toBe('done');
  });

  it('runs mail while slow jobs of another kind fill their slots, and honours slots per kind', async () => {
    const SLOW = numbered('slow.test');
    const MAIL = numbered('mail.test');
    const { jobs, queue } = connect();
    const release = gate();
    const slowStarted: number[] = [];
    const mailed: number[] = [];
    const now = Date.now();
    // The slow jobs are due first, so a one-at-a-time runner would take them before the mail.
    for (const n of [1, 2, 3]) await queue.enqueue(SLOW, { n }, { runAt: now - 1_000 });
    await queue.enqueue(MAIL, { n: 1 }, { runAt: now });
    const runner = new JobRunner({ jobs, log: quiet, pollMs: 20, concurrency: { 'slow.test': 2 } })
      .register({
        job: SLOW,
        run: async (payload) => {
          slowStarted.push(payload.n);
          await release.opened;
        },
      })
      .register({
        job: MAIL,
        run: (payload) => {
          mailed.push(payload.n);
          return Promise.resolve();
        },
      });
    runner.start();
    await eventually(
      () => mailed.length === 1 && slowStarted.length === 2,
      'the mail beside two slow jobs',
      15_000,
      POLL_MS,
    );
    // Its two slots full, the third slow job waits while the mail went through.
    await sleep(200);
    expect(slowStarted).toHaveLength(2);
    await queue.enqueue(MAIL, { n: 2 });
    runner.kick();
    await eventually(() => mailed.length === 2, 'the second mail', 15_000, POLL_MS);
    expect(slowStarted).toHaveLength(2);
    release.open();
    await eventually(() => slowStarted.length === 3, 'the third slow job', 15_000, POLL_MS);
    await runner.stop();
  });

  it('keeps jobs of one concurrency key under their cap across two runners', async () => {
    const PUSH = defineJob('push.test', z.object({ destination: z.string(), n: z.number() }), (p) => ({
      key: `push:${p.destination}`,
      cap: 2,
    }));
    const a = connect();
    const b = connect();
    const ids: number[] = [];
    for (let n = 0; n < 6; n++) ids.push(await a.queue.enqueue(PUSH, { destination: 'pacs-1', n }));
    for (let n = 0; n < 2; n++) ids.push(await a.queue.enqueue(PUSH, { destination: 'pacs-2', n }));
    const running = new Map<string, number>();
    const most = new Map<string, number>();
    let mostOverall = 0;
    const handler = {
      job: PUSH,
      run: async (payload: { destination: string }) => {
        const now = (running.get(payload.destination) ?? 0) + 1;
        running.set(payload.destination, now);
        most.set(payload.destination, Math.max(most.get(payload.destination) ?? 0, now));
        mostOverall = Math.max(
          mostOverall,
          [...running.values()].reduce((x, y) => x + y, 0),
        );
        await sleep(150);
        running.set(payload.destination, running.get(payload.destination)! - 1);
      },
    };
    const runners = [a, b].map((c) =>
      new JobRunner({ jobs: c.jobs, log: quiet, pollMs: 10, concurrency: { 'push.test': 4 } }).register(
        handler,
      ),
    );
    for (const r of runners) r.start();
    await eventually(
      async () => (await Promise.all(ids.map((id) => a.jobs.find(id)))).every((j) => j?.status === 'done'),
      'both jobs done',
      15_000,
      POLL_MS,
    );
    await Promise.all(runners.map((r) => r.stop()));
    expect(most.get('pacs-1')).toBe(2);
    // Another destination is not held up by the first one's cap.
    expect(mostOverall).toBeGreaterThan(2);
  });

  it('refuses a payload that does not fit its kind at enqueue, and fails one found at claim', async () => {
    const BAD = numbered('bad.test');
    const { jobs, queue, db } = connect();
    await expect(queue.enqueue(BAD, { n: 'one' } as never)).rejects.toThrow(InvalidJobPayloadError);
    await expect(queue.enqueue(BAD, { n: 'one' } as never)).rejects.toThrow(/bad\.test payload: n:/);
    const rows = await db.kysely.selectFrom('jobs').select('id').where('kind', '=', 'bad.test').execute();
    expect(rows).toEqual([]);

    // A row that went around the queue (written by hand, or by an older release).
    const id = await jobs.enqueue({ kind: 'bad.test', payload: { n: 'one' }, runAt: Date.now() }, Date.now());
    let ran = false;
    const runner = new JobRunner({ jobs, log: quiet }).register({
      job: BAD,
      run: () => {
        ran = true;
        return Promise.resolve();
      },
    });
    expect(await runner.runOne()).toBe(true);
    expect(ran).toBe(false);
    const job = await jobs.find(id);
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job?.last_error).toMatch(/Invalid bad\.test payload/);
  });
});
