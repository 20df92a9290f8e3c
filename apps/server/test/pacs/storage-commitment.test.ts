import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, demoWorld } from '../support/demo-world.js';
import type { CommitmentScp } from '../support/commitment-scp.js';
import { startCommitmentScp } from '../support/commitment-scp.js';
import type { Exposed } from '../support/netns-expose.js';
import { exposeToNamespace } from '../support/netns-expose.js';
import type { Orthanc } from '../support/orthanc.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/** Our listener's port as Orthanc (inside the namespace) reaches it: where its reports come. */
const INBOX_INSIDE_PORT = 11112;

interface Attempt {
  uuid: string;
  status: string;
  reason: string | null;
  image_count: number;
  images_sent: number;
  images_failed: number;
}

/**
 * Orthanc loses (deletes) the first instance it stores of the study named in `lose-study.txt`,
 * once: a C-STORE it acknowledged that it then cannot commit.
 */
const LOSE_ONE = (dir: string) => `
lost = lost or {}
function OnStoredInstance(instanceId, tags, metadata, origin)
  local f = io.open('${dir}/lose-study.txt', 'r')
  if f == nil then return end
  local study = f:read('*l')
  f:close()
  if tags['StudyInstanceUID'] == study and not lost[study] then
    lost[study] = tags['SOPInstanceUID']
    Delete(instanceId)
  end
end
`;

describe.each(DIALECTS)('Storage commitment on push on %s', (dialect) => {
  let server: TestServer;
  let peer: OrthancPacs;
  let orthanc: Orthanc;
  let toUs: Exposed;
  let admin: string;
  let account: string;
  let orthancDestination: string;
  let studies: { uuid: string; study_uid: string; image_count: number }[];
  const scps: CommitmentScp[] = [];
  let luaDir: string;

  const pushes = async (study: string) =>
    (await server.api.call('study/push/list', { uuid: study }, admin)).body.pushes as Attempt[];
  const ended = (study: string, timeoutMs = 60_000) =>
    until(
      () => pushes(study),
      (list) => list.length > 0 && !['I', 'N'].includes(list[0]!.status),
      timeoutMs,
    ).then((list) => list[0]!);
  const push = async (study: string, destination: string) => {
    const queued = await server.api.call('study/push', { uuid: study, destination_id: destination }, admin);
    expect(queued.body).toMatchObject({ status: 'OK' });
  };
  const orthancCount = async (studyUid: string) => {
    const found = await orthanc.rest<{ ID: string }[]>('POST', '/tools/lookup', studyUid);
    if (!Array.isArray(found) || !found.length) return 0;
    return (await orthanc.rest<string[]>('GET', `/studies/${found[0]!.ID}/instances`)).length;
  };
  const scpDestination = async (name: string, scp: CommitmentScp, timeout: number) =>
    addDestination(server.api, admin, account, {
      name,
      aetitle: name.toUpperCase(),
      port: scp.port,
      can_push: 1,
      storage_commitment: 1,
      storage_commitment_timeout: timeout,
    });

  beforeAll(async () => {
    server = await startTestServer(dialect, { PUSH_RETRY_MS: '200' });
    const lua = fs.mkdtempSync('/tmp/commitment-lua-');
    fs.writeFileSync(path.join(lua, 'lose-one.lua'), LOSE_ONE(lua));
    peer = await startOrthancPacs('inbox-commitment-', {
      modalities: { INBOX: ['INBOX', '127.0.0.1', INBOX_INSIDE_PORT] },
      config: { LuaScripts: [path.join(lua, 'lose-one.lua')] },
    });
    luaDir = lua;
    ({ orthanc } = peer);
    toUs = await exposeToNamespace(peer.ns, server.dicomPort, INBOX_INSIDE_PORT);
    const world = await demoWorld(server, ['admin']);
    admin = world.sid.admin;
    account = world.account;
    orthancDestination = await addDestination(server.api, admin, account, {
      name: 'Orthanc',
      aetitle: 'ORTHANC',
      port: peer.toOrthanc.port,
      can_push: 1,
      storage_commitment: 1,
      storage_commitment_timeout: 60,
    });
    studies = (await server.api.call('study/list', { 'page.rows': 10 }, admin)).body.studies;
    studies = studies.filter((s) => s.image_count >= 2);
  }, 120_000);

  afterAll(async () => {
    for (const scp of scps) await scp.close();
    await toUs?.close();
    await peer?.stop();
    await server?.stop();
    if (luaDir) fs.rmSync(luaDir, { recursive: true, force: true });
  });

  it('keeps the setting and its timeout, and refuses a bad timeout changing nothing', async () => {
    const got = await server.api.call('destination/get', { uuid: orthancDestination }, admin);
    expect(got.body).toMatchObject({ storage_commitment: 1, storage_commitment_timeout: 60 });
    for (const bad of ['-1', 'abc', '86401', '1.5']) {
      const refused = await server.api.call(
        'destination/set',
        { uuid: orthancDestination, storage_commitment_timeout: bad },
        admin,
      );
      expect([refused.body.error_type, refused.body.error_subtype]).toEqual([
        'INVALID_FIELD',
        'storage_commitment_timeout',
      ]);
    }
    const flag = await server.api.call(
      'destination/set',
      { uuid: orthancDestination, storage_commitment: 'maybe' },
      admin,
    );
    expect(flag.body.error_subtype).toBe('storage_commitment');
    const after = await server.api.call('destination/get', { uuid: orthancDestination }, admin);
    expect(after.body).toMatchObject({ storage_commitment: 1, storage_commitment_timeout: 60 });
  });

  it('ends S once Orthanc reports every instance committed, on an association it opens to our listener', async () => {
    const study = studies[0]!;
    await push(study.uuid, orthancDestination);
    const attempt = await ended(study.uuid);
    expect(attempt).toMatchObject({
      status: 'S',
      reason: null,
      images_sent: study.image_count,
      images_failed: 0,
    });
    expect(await orthancCount(study.study_uid)).toBe(study.image_count);
  }, 90_000);

  it('ends F naming the instance Orthanc lost, and the Retry sends only that one', async () => {
    const study = studies[1]!;
    fs.writeFileSync(path.join(luaDir, 'lose-study.txt'), `${study.study_uid}\n`);
    await push(study.uuid, orthancDestination);
    const attempt = await ended(study.uuid);
    expect(attempt.status).toBe('F');
    expect(attempt.reason).toMatch(
      /^storage commitment failed for 1 instance\(s\): [\d.]+ \(no such object instance\)$/,
    );
    expect(attempt).toMatchObject({ images_sent: study.image_count - 1, images_failed: 1 });
    expect(await orthancCount(study.study_uid)).toBe(study.image_count - 1);

    await push(study.uuid, orthancDestination);
    const retry = await ended(study.uuid);
    expect(retry).toMatchObject({ status: 'S', image_count: 1, images_sent: 1 });
    expect(await orthancCount(study.study_uid)).toBe(study.image_count);
  }, 120_000);

  it('takes a report on the N-ACTION association itself, failed instances named', async () => {
    const scp = await startCommitmentScp('same-association');
    scps.push(scp);
    const destination = await scpDestination('SameAssoc', scp, 30);
    const study = studies[2]!;
    await push(study.uuid, destination);
    expect(await ended(study.uuid)).toMatchObject({ status: 'S', images_sent: study.image_count });
    expect(scp.actions).toHaveLength(1);
    expect(scp.actions[0]!.instances).toHaveLength(study.image_count);

    const other = studies[3]!;
    scp.failFirst = true;
    await push(other.uuid, destination);
    const attempt = await ended(other.uuid);
    const lost = scp.actions[1]!.instances[0]!;
    expect(attempt).toMatchObject({
      status: 'F',
      reason: `storage commitment failed for 1 instance(s): ${lost} (no such object instance)`,
      images_failed: 1,
    });
  }, 90_000);

  it('ends F with the reason when no report comes within the timeout, and keeps nothing waiting', async () => {
    const scp = await startCommitmentScp('silent');
    scps.push(scp);
    const destination = await scpDestination('Silent', scp, 2);
    const study = studies[4] ?? studies[0]!;
    const started = Date.now();
    await push(study.uuid, destination);
    const attempt = await ended(study.uuid, 30_000);
    expect(attempt).toMatchObject({
      status: 'F',
      reason: 'no storage commitment report within 2 s',
      images_sent: 0,
      images_failed: study.image_count,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(scp.stores).toBe(study.image_count);
    // The Retry sends everything again: nothing was committed.
    scp.mode = 'same-association';
    await push(study.uuid, destination);
    expect(await ended(study.uuid)).toMatchObject({ status: 'S', image_count: study.image_count });
  }, 60_000);
});
