import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/child-server.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import {
  addDestination,
  demoWorld,
  gatekeeperConfig,
  nominate as nominateTo,
  setGatekeeperConfig,
} from '../support/demo-world.js';
import { smallestStudiesIn } from '../support/studies.js';

/** The `count` smallest studies of a demo group that the demo has not nominated already. */
async function notNominated(server: TestServer, group: string, count: number) {
  const nominated = new Set(
    (await server.ctx.db.kysely.selectFrom('nominations').select('study_uuid').execute()).map(
      (n) => n.study_uuid,
    ),
  );
  const studies = await smallestStudiesIn(server.ctx.db, group, count + nominated.size);
  return studies.filter((s) => !nominated.has(s.uuid)).slice(0, count);
}

/** dcmtk's storescp: a real peer that stores what it is sent and answers no C-FIND (a push-only PACS). */
async function startStoreOnlyPeer(dir: string): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn('storescp', ['-aet', 'STOREONLY', '-od', dir, String(port)], { stdio: 'ignore' });
  // Listening once a TCP connect succeeds.
  await until(
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      }),
    (up) => up,
    10_000,
  );
  return { port, process: child };
}

/**
 * Send to PACS (study/process) and the check of whether the destination already holds the study
 * (a C-FIND before sending): a destination that takes no searches, or whose PACS turns out to answer
 * none, is sent to without it; one that gives no DICOM answer at all stops the send with the
 * destination's name and nothing changed.
 */
describe.each(DIALECTS)('study/process and its destination check on %s', (dialect) => {
  let server: TestServer;
  let work: string;
  let peer: { port: number; process: ChildProcess };
  let clinician: string;
  let gatekeeper: string;
  let intake: { uuid: string; namespace_id: string };
  let storeOnly: string;
  let dead: string;
  let deadPushOnly: string;
  /** The nomination the dead PACS could not take, still waiting in Nominations. */
  let waiting: string;
  const nominees: { uuid: string; study_uid: string }[] = [];

  const db = () => server.ctx.db.kysely;
  const nominate = (study: string) => nominateTo(server.api, clinician, study, intake.uuid);
  const state = async (copy: string) => ({
    study: await db()
      .selectFrom('studies')
      .select(['patient_name', 'must_approve', 'push_status', 'is_locked'])
      .where('uuid', '=', copy)
      .executeTakeFirstOrThrow(),
    nomination: await db()
      .selectFrom('nominations')
      .select(['process', 'processed_at'])
      .where('copy_uuid', '=', copy)
      .executeTakeFirstOrThrow(),
    pushes: await db().selectFrom('study_pushes').select('status').where('study_uuid', '=', copy).execute(),
  });
  const process = (copy: string, destination: string) =>
    server.api.call(
      'study/process',
      { uuid: copy, destination_id: destination, priority: 'Routine' },
      gatekeeper,
    );

  beforeAll(async () => {
    server = await startTestServer(dialect, { PUSH_RETRY_MS: '200' });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-process-check-'));
    peer = await startStoreOnlyPeer(work);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper']);
    const admin = world.sid.admin;
    ({ clinician, gatekeeper } = world.sid);
    intake = world.groups['PACS Intake']!;
    const add = (name: string, aetitle: string, port: number, canSearch: 0 | 1) =>
      addDestination(server.api, admin, world.account, {
        name,
        aetitle,
        port,
        can_search: canSearch,
        can_push: 1,
      });
    const closed = await freePort();
    // Search ticked although the PACS answers none: what an admin typing in a push-only PACS got.
    storeOnly = await add('Store-only PACS', 'STOREONLY', peer.port, 1);
    dead = await add('Dead PACS', 'DEADPACS', closed, 1);
    deadPushOnly = await add('Dead push-only PACS', 'DEADPUSH', closed, 0);
    const config = await gatekeeperConfig(server.api, admin, intake.uuid);
    await setGatekeeperConfig(server.api, admin, intake.uuid, {
      ...config,
      destinations: [storeOnly, dead, deadPushOnly],
    });
    nominees.push(...(await notNominated(server, 'Cardiology', 2)));
  }, 120_000);

  afterAll(async () => {
    peer?.process.kill('SIGTERM');
    await server?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('stops a send to a PACS that gives no DICOM answer, naming it, and changes nothing', async () => {
    const copy = await nominate(nominees[0]!.uuid);
    waiting = copy;
    const before = await state(copy);
    const answer = await process(copy, dead);
    expect(answer.status).toBe(412);
    expect(answer.body).toMatchObject({
      status: 'ERROR',
      error_type: 'DESTINATION_CHECK_FAILED',
      error_subtype: 'destination_id',
      error_data: { destination_id: dead, destination_name: 'Dead PACS', status: null },
    });
    // The socket's reason stays in the server log (decision 0054), never in the answer.
    expect(JSON.stringify(answer.body)).not.toMatch(/ECONNREFUSED|refused/i);
    expect(await state(copy)).toEqual(before);
    expect(before.nomination.process).toBeNull();
  }, 60_000);

  it('sends to a PACS whose Search is ticked but that answers no C-FIND: the check cannot run, the send is not blocked', async () => {
    const copy = waiting;
    const answer = await process(copy, storeOnly);
    expect(answer.body).toMatchObject({ status: 'OK' });
    const pushed = await until(
      () => state(copy),
      (s) => s.pushes.some((p) => p.status === 'S'),
    );
    expect(pushed.study.push_status).toBe('S');
    // storescp wrote the instances it was sent.
    expect(fs.readdirSync(work).length).toBeGreaterThan(0);
  }, 90_000);

  it('queues a send to a push-only destination without any check, even with its PACS down', async () => {
    const copy = await nominate(nominees[1]!.uuid);
    const answer = await process(copy, deadPushOnly);
    expect(answer.body).toMatchObject({ status: 'OK' });
    expect((await state(copy)).pushes).toHaveLength(1);
  }, 60_000);
});
