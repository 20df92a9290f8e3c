import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../src/jobs/job-definition.js';
import { type JobHandler, JobRunner, PermanentJobError } from '../../src/jobs/job-runner.js';
import type { Dialect } from '../support/test-server.js';
import { jobDatabase } from '../support/job-database.js';
import { DIALECTS } from '../support/test-server.js';
import { eventually } from '../support/until.js';

const quiet = () => undefined;
// Runners here poll every few ms: look as often.
const POLL_MS = 20;

const RESTART = defineJob('restart.test', z.object({ n: z.number() }));
const anyJob = (kind: string) => defineJob(kind, z.object({}).passthrough());

describe.each(DIALECTS)('durable job runner on %s', (dialect: Dialect) => {
  const database = jobDatabase(dialect, 'jobs-test-');
  const connect = database.connect;
  beforeAll(database.setUp);
  afterAll(database.tearDown);

  it('runs a job queued before a restart, and reclaims one whose runner died mid-job', async () => {
    const first = connect();
    const orphan = await first.jobs.enqueue(
      { kind: 'restart.test', payload: { n: 2 }, runAt: Date.now() },
      Date.now(),
    );
    // The first process claims a job with a short lease, then "crashes" (never finishes it).
    expect((await first.jobs.claim(['restart.test'], Date.now(), 200))?.id).toBe(orphan);
    const queued = await first.jobs.enqueue(
      { kind: 'restart.test', payload: { n: 1 }, runAt: Date.now() },
      Date.now(),
    );
    await first.db.close();

    const second = connect();
    const seen: number[] = [];
    const runner = new JobRunner({ jobs: second.jobs, log: quiet, pollMs: 20 }).register({
      job: RESTART,
      run: (payload) => {
        seen.push(payload.n);
        return Promise.resolve();
      },
    });
    runner.start();
    await eventually(() => Promise.resolve(seen.length === 2), 'both jobs run', 10_000, POLL_MS);
    await runner.stop();
    expect(seen.sort()).toEqual([1, 2]);
    expect((await second.jobs.find(queued))?.status).toBe('done');
    expect(await second.jobs.find(orphan)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('retries a failing job with backoff, then fails it keeping the last error', async () => {
    const { jobs } = connect();
    const runAt = Date.now();
    const id = await jobs.enqueue({ kind: 'fail.test', payload: {}, runAt }, runAt);
    const delays: number[] = [];
    let calls = 0;
    const runner = new JobRunner({
      jobs,
      log: quiet,
      pollMs: 10,
      backoffMs: (attempt) => {
        delays.push(attempt);
        return 30 * attempt;
      },
    }).register({
      job: anyJob('fail.test'),
      maxAttempts: 3,
      run: () => {
        calls++;
        return Promise.reject(new Error(`peer refused (${calls})`));
      },
    });
    runner.start();
    await eventually(
      async () => (await jobs.find(id))?.status === 'failed',
      'the job failed',
      10_000,
      POLL_MS,
    );
    await runner.stop();
    expect(calls).toBe(3);
    expect(delays).toEqual([1, 2]);
    const job = await jobs.find(id);
    expect(job).toMatchObject({ status: 'failed', attempts: 3, last_error: 'peer refused (3)' });
    expect(job!.run_at).toBeGreaterThanOrEqual(runAt + 30 + 60);

    const permanent = await jobs.enqueue({ kind: 'permanent.test', payload: {}, runAt }, runAt);
    const once = new JobRunner({ jobs, log: quiet }).register({
      job: anyJob('permanent.test'),
      run: () => Promise.reject(new PermanentJobError('unknown study')),
    });
    expect(await once.runOne()).toBe(true);
    expect(await jobs.find(permanent)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'unknown study',
    });
  });

  it('never runs one job in two runners at once', async () => {
    const a = connect();
    const b = connect();
    const now = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < 40; i++)
      ids.push(await a.jobs.enqueue({ kind: 'race.test', payload: { i }, runAt: now }, now));
    const runs = new Map<number, string[]>();
    const race = anyJob('race.test');
    const handler = (name: string): JobHandler<z.output<typeof race.payload>> => ({
      job: race,
      run: async (_payload, job) => {
        runs.set(job.id, [...(runs.get(job.id) ?? []), name]);
        await new Promise((r) => setTimeout(r, 2));
      },
    });
    const runners = [
      new JobRunner({ jobs: a.jobs, log: quiet, pollMs: 5 }).register(handler('a')),
      new JobRunner({ jobs: b.jobs, log: quiet, pollMs: 5 }).register(handler('b')),
    ];
    for (const r of runners) r.start();
    await eventually(() => Promise.resolve(runs.size === 40), 'all 40 jobs run', 10_000, POLL_MS);
    await Promise.all(runners.map((r) => r.stop()));
    expect([...runs.values()].every((by) => by.length === 1)).toBe(true);
    // Both runners took part (not a test of one runner alone).
    const by = new Set([...runs.values()].flat());
    expect(by.size).toBe(2);
    for (const id of ids) expect((await a.jobs.find(id))?.status).toBe('done');
  });

  it('dedupes by key and cancels only jobs that have not started', async () => {
    const { jobs } = connect();
    const now = Date.now();
    const first = await jobs.enqueue(
      { kind: 'x.test', payload: { a: 1 }, runAt: now + 60_000, dedupeKey: 'k1' },
      now,
    );
    const again = await jobs.enqueue({ kind: 'x.test', payload: { a: 2 }, runAt: now, dedupeKey: 'k1' }, now);
    expect(again).toBe(first);
    expect(await jobs.claim(['x.test'], now, 1000)).toBeUndefined();
    expect(await jobs.cancel(first, now)).toBe(true);
    expect(await jobs.cancel(first, now)).toBe(false);
    const ran = await jobs.enqueue({ kind: 'y.test', payload: {}, runAt: now }, now);
    const runner = new JobRunner({ jobs, log: quiet }).register({
      job: anyJob('y.test'),
      run: () => Promise.resolve(),
    });
    await runner.runOne();
    expect(await jobs.cancel(ran, now)).toBe(false);
    expect((await jobs.find(ran))?.status).toBe('done');
  });
});
