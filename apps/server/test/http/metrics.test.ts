import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOP_CLASS_BY_MODALITY, newUid } from '../../src/dicom/index.js';
import { RawScu } from '../dimse/raw-scu.js';
import { tinyInstance } from '../support/tiny-instance.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

/** The value of one series in Prometheus text (labels given in the order they are printed), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    const parts = inside.split(',');
    if (wanted.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe.each(DIALECTS)('/metrics on %s', (dialect) => {
  let server: TestServer;
  const processId = `metrics-${dialect}`;
  const scrape = async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0', PROCESS_ID: processId });
  });
  afterAll(() => server?.stop());

  it('times requests by route pattern, never by URL', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${server.url}/api/v3/health`);
    await fetch(`${server.url}/api/v3/study/get?sid=secret-sid&uuid=${newUid()}`);
    await fetch(`${server.url}/no/such/page-${newUid()}`);
    const text = await scrape();
    expect(
      sample(text, 'imaging_inbox_http_request_duration_seconds_count', {
        process: processId,
        method: 'GET',
        route: '/api/v3/health',
        status: '200',
      }),
    ).toBe(3);
    expect(
      sample(text, 'imaging_inbox_http_request_duration_seconds_count', { route: '/api/v3/study/get' }),
    ).toBe(1);
    expect(sample(text, 'imaging_inbox_http_request_duration_seconds_count', { route: 'unmatched' })).toBe(1);
    expect(text).not.toContain('secret-sid');
    expect(text).not.toContain('page-');
  });

  it('shows the job queue by kind: due, how long the oldest waited, running', async () => {
    const now = Date.now();
    // A kind no runner here handles, so the jobs stay where the test put them.
    for (let i = 0; i < 3; i++)
      await server.ctx.repos.jobs.enqueue({ kind: 'metrics.test', payload: {}, runAt: now - 60_000 }, now);
    await server.ctx.repos.jobs.enqueue({ kind: 'metrics.test', payload: {}, runAt: now + 3_600_000 }, now);
    await server.ctx.repos.jobs.enqueue({ kind: 'metrics.running', payload: {}, runAt: now }, now);
    await server.ctx.repos.jobs.claim(['metrics.running'], now, 60_000);
    const text = await scrape();
    expect(sample(text, 'imaging_inbox_jobs_due', { kind: 'metrics.test' })).toBe(3);
    expect(
      sample(text, 'imaging_inbox_jobs_oldest_due_age_seconds', { kind: 'metrics.test' }),
    ).toBeGreaterThanOrEqual(60);
    expect(sample(text, 'imaging_inbox_jobs_running', { kind: 'metrics.running' })).toBe(1);
    expect(sample(text, 'imaging_inbox_jobs_due', { kind: 'metrics.running' })).toBe(0);
  });

  it('counts instances and bytes ingested by source, and DICOM associations by outcome', async () => {
    const node = (await server.ctx.repos.dicomNodes.findByAeTitle('DEMO_GATEWAY'))!;
    const target = {
      accountId: node.account_id,
      namespaceId: node.namespace_id,
      sourceAeTitle: 'DEMO_GATEWAY',
    };
    const bytes = tinyInstance({
      patientName: 'METRICS^TEST',
      patientId: 'METRICS-1',
      studyDescription: 'metrics',
    });
    const source = { kind: 'stow', userId: null };
    await server.ctx.services.ingest.ingestBytes(bytes, target, source);
    // The same instance again is a duplicate: not counted.
    await server.ctx.services.ingest.ingestBytes(bytes, target, source);

    const accepted = await RawScu.connect(server.dicomPort);
    expect(await accepted.associate('DEMO_GATEWAY', 'INBOX', [SOP_CLASS_BY_MODALITY.CT])).toBe(0x02);
    await accepted.release();
    const refused = await RawScu.connect(server.dicomPort);
    expect(await refused.associate('NOBODY', 'INBOX', [SOP_CLASS_BY_MODALITY.CT])).toBe(0x03);
    refused.destroy();

    const text = await scrape();
    expect(sample(text, 'imaging_inbox_ingest_instances_total', { source: 'stow' })).toBe(1);
    expect(sample(text, 'imaging_inbox_ingest_bytes_total', { source: 'stow' })).toBe(bytes.byteLength);
    expect(sample(text, 'imaging_inbox_dimse_associations_total', { outcome: 'accepted' })).toBe(1);
    expect(sample(text, 'imaging_inbox_dimse_associations_total', { outcome: 'rejected' })).toBe(1);
  });
});

describe('who may read /metrics', () => {
  let server: TestServer;
  const token = 'metrics-token-0123456789';
  beforeAll(async () => {
    // The test client is the trusted proxy, so X-Forwarded-For plays a client on another machine.
    server = await startTestServer('sqlite', {
      SEED_STUDIES: '0',
      TRUST_PROXY: '127.0.0.1',
      METRICS_TOKEN: token,
    });
  });
  afterAll(() => server?.stop());

  const scrape = (headers: Record<string, string>) =>
    fetch(`${server.url}/metrics`, { headers }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));

  it('answers a client on this machine without a token', async () => {
    const local = await scrape({});
    expect(local.status).toBe(200);
    expect(local.text).toContain('imaging_inbox_');
  });

  it('refuses a client elsewhere without the token, and answers it with the token', async () => {
    const remote = { 'x-forwarded-for': '203.0.113.5' };
    const refused = await scrape(remote);
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('imaging_inbox_');
    expect((await scrape({ ...remote, authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    expect((await scrape({ ...remote, authorization: token })).status).toBe(401);
    const allowed = await scrape({ ...remote, authorization: `Bearer ${token}` });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('imaging_inbox_');
  });
});
