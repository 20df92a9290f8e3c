import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dcmjs from 'dcmjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination } from '../support/demo-world.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

interface Attempt {
  uuid: string;
  status: string;
  reason: string | null;
  image_count: number;
  images_sent: number;
  images_failed: number;
  deidentified?: { profile: string; refused_burned_in: number };
}

/** A pydicom sample made part of one study of one patient (dcmtk's dcmodify on a copy). */
function sample(dir: string, name: string, study: { uid: string; patient: string; id: string }): Buffer {
  const file = path.join(dir, `${study.uid}-${name}`);
  fs.copyFileSync(path.join(PYDICOM, name), file);
  execFileSync('dcmodify', [
    '-nb',
    '-m',
    `(0020,000d)=${study.uid}`,
    '-m',
    `(0010,0010)=${study.patient}`,
    '-m',
    `(0010,0020)=${study.id}`,
    file,
  ]);
  return fs.readFileSync(file);
}

/** The identifying values of a file (4+ characters): patient name and its parts, IDs, accession, UIDs. */
function identifyingValues(bytes: Uint8Array): string[] {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const dict = dcmjs.data.DicomMessage.readFile(buffer as ArrayBuffer).dict;
  const values: string[] = [];
  for (const tag of ['00100010', '00100020', '0020000D', '0020000E', '00080018', '00080050']) {
    for (const v of dict[tag]?.Value ?? []) {
      const text =
        typeof v === 'object' && v !== null
          ? String((v as { Alphabetic?: string }).Alphabetic ?? '')
          : String(v);
      for (const part of [text, ...text.split('^')]) if (part.trim().length >= 4) values.push(part.trim());
    }
  }
  return values;
}

/**
 * A push to a destination that applies a de-identification profile (issue 33, decision 0071): the
 * PACS (Orthanc in its own network namespace) receives de-identified copies made by the one engine,
 * files that may show burned-in text are refused unless the profile keeps them and the refusal is on
 * the attempt, and no account may name another account's profile.
 */
describe.each(DIALECTS)('de-identified push to a PACS on %s', (dialect) => {
  let server: TestServer;
  let peer: OrthancPacs;
  let admin: string;
  let partnerAdmin: string;
  let clinician: string;
  let account: string;
  let partnerAccount: string;
  let workDir: string;
  let emergency: string;
  let basic: { uuid: string; name: string };
  let keeping: { uuid: string; name: string };
  let partnerProfile: string;
  let deidentifying: string;

  const call = (name: string, params: Record<string, string | number>, sid: string) =>
    server.api.call(name, params, sid);
  const pushes = async (study: string) =>
    (await call('study/push/list', { uuid: study }, admin)).body.pushes as Attempt[];
  const ended = (study: string) =>
    until(
      () => pushes(study),
      (list) => list.length > 0 && !['I', 'N'].includes(list[0]!.status),
    ).then((list) => list[0]!);
  /** Every file Orthanc holds, with its patient name as Orthanc read it. */
  const orthancFiles = async () => {
    const ids = await peer.orthanc.rest<string[]>('GET', '/instances');
    return Promise.all(ids.map((id) => peer.orthanc.restBytes(`/instances/${id}/file`)));
  };
  const clearOrthanc = async () => {
    for (const id of await peer.orthanc.rest<string[]>('GET', '/studies'))
      await peer.orthanc.rest('DELETE', `/studies/${id}`);
  };
  const studyOf = (studyUid: string) =>
    server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid'])
      .where('study_uid', '=', studyUid)
      .executeTakeFirstOrThrow();
  const upload = async (files: Buffer[]) => {
    for (const bytes of files) expect((await server.api.upload(admin, emergency, bytes)).status).toBe(202);
  };
  const pushCount = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('study_pushes')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    server = await startTestServer(dialect, { PUSH_RETRY_MS: '200' });
    peer = await startOrthancPacs('inbox-deid-push-');
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deid-push-files-'));
    admin = await server.api.login('admin@demo.local');
    partnerAdmin = await server.api.login('partner@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    const accounts = await server.ctx.db.kysely.selectFrom('accounts').select(['uuid', 'vanity']).execute();
    account = accounts.find((a) => a.vanity === 'demo')!.uuid;
    partnerAccount = accounts.find((a) => a.vanity === 'partner')!.uuid;
    emergency = await server.api.namespaceOf(admin, 'Emergency');
    basic = (await call('anonymization/add', { account_id: account, name: 'Research PACS' }, admin)).body;
    keeping = (
      await call(
        'anonymization/add',
        { account_id: account, name: 'Keeps burned-in', keep_burned_in: 1, options: 'cleanDescriptors' },
        admin,
      )
    ).body;
    partnerProfile = (
      await call('anonymization/add', { account_id: partnerAccount, name: 'Partner profile' }, partnerAdmin)
    ).body.uuid;
    deidentifying = await addDestination(server.api, admin, account, {
      name: 'Research Orthanc',
      aetitle: 'ORTHANC',
      port: peer.toOrthanc.port,
      can_push: 1,
      anonymization_id: basic.uuid,
    });
  }, 120_000);

  afterAll(async () => {
    await peer?.stop();
    await server?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('keeps the profile on the destination, answered and audited', async () => {
    const got = await call('destination/get', { uuid: deidentifying }, admin);
    expect(got.body.anonymization_id).toBe(basic.uuid);
    const added = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('object_id', '=', deidentifying)
      .where('action', '=', 'CREATE')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(added.detail!)).toMatchObject({ after: { anonymization_id: basic.uuid } });
  });

  it('sends de-identified copies: no original name, ID or UID reaches the PACS; a secondary capture is refused and said so', async () => {
    const patient = { uid: '1.2.826.0.1.3680043.10.1071.1', patient: 'Garcia^Maria', id: 'MRN-7781' };
    const files = [
      sample(workDir, 'CT_small.dcm', patient),
      sample(workDir, 'MR_small.dcm', patient),
      sample(workDir, 'SC_rgb_small_odd.dcm', patient),
    ];
    const originals = [...new Set(files.flatMap(identifyingValues))];
    expect(originals).toEqual(expect.arrayContaining(['Garcia', 'Maria', 'MRN-7781', patient.uid]));
    await upload(files);
    const study = await studyOf(patient.uid);

    // A push cannot weaken the destination's own profile with another.
    const weaker = await call(
      'study/push',
      { uuid: study.uuid, destination_id: deidentifying, anonymization_id: keeping.uuid },
      admin,
    );
    expect(weaker.status).toBe(412);
    expect(weaker.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });

    const started = await call('study/push', { uuid: study.uuid, destination_id: deidentifying }, admin);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.push.deidentified).toEqual({ profile: 'Research PACS', refused_burned_in: 0 });
    const attempt = await ended(study.uuid);
    expect(attempt).toMatchObject({
      status: 'P',
      image_count: 3,
      images_sent: 2,
      images_failed: 1,
      deidentified: { profile: 'Research PACS', refused_burned_in: 1 },
    });

    const received = await orthancFiles();
    expect(received).toHaveLength(2);
    for (const bytes of received) {
      const text = bytes.toString('latin1');
      for (const value of originals) expect(text, value).not.toContain(value);
      const dict = dcmjs.data.DicomMessage.readFile(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      ).dict;
      expect(dict['00120062']?.Value).toEqual(['YES']);
      expect(String(dict['00100020']?.Value?.[0])).toMatch(/^ANON[0-9A-F]{12}$/);
      expect(dict['00080060']?.Value?.[0]).not.toBe('OT');
    }
    // The same study UID for both copies: the study stays one study at the PACS.
    expect(await peer.orthanc.rest<string[]>('GET', '/studies')).toHaveLength(1);

    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('object_id', '=', study.uuid)
      .where('action', 'in', ['PUSH', 'PUSH_END'])
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.action)).toEqual(['PUSH', 'PUSH_END']);
    expect(JSON.parse(events[0]!.detail!)).toMatchObject({
      deidentified: { profile: basic.uuid, name: 'Research PACS' },
    });
    // The stored files were not touched.
    const stored = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', study.uuid)
      .execute();
    const storedValues = (
      await Promise.all(stored.map((r) => server.ctx.services.blobs.read(r.blob_key)))
    ).flatMap(identifyingValues);
    expect(storedValues).toEqual(expect.arrayContaining(['Garcia', 'MRN-7781']));
  }, 90_000);

  it('refuses a study whose every file may show burned-in text: F, nothing sent, the reason on the attempt', async () => {
    await clearOrthanc();
    const patient = { uid: '1.2.826.0.1.3680043.10.1071.2', patient: 'Lestrade^Greg', id: 'MRN-4402' };
    await upload([sample(workDir, 'SC_rgb_small_odd.dcm', patient)]);
    const study = await studyOf(patient.uid);
    await call('study/push', { uuid: study.uuid, destination_id: deidentifying }, admin);
    const attempt = await ended(study.uuid);
    expect(attempt).toMatchObject({
      status: 'F',
      images_sent: 0,
      images_failed: 1,
      reason: 'burned_in_text',
      deidentified: { profile: 'Research PACS', refused_burned_in: 1 },
    });
    expect(await orthancFiles()).toHaveLength(0);

    // A push naming a profile that keeps such files sends it, de-identified, to a destination
    // without a profile of its own.
    await call('destination/set', { uuid: deidentifying, anonymization_id: '' }, admin);
    await call(
      'study/push',
      { uuid: study.uuid, destination_id: deidentifying, anonymization_id: keeping.uuid },
      admin,
    );
    const kept = await until(
      () => pushes(study.uuid),
      (list) => list[0]!.uuid !== attempt.uuid && !['I', 'N'].includes(list[0]!.status),
    ).then((list) => list[0]!);
    expect(kept).toMatchObject({
      status: 'S',
      deidentified: { profile: 'Keeps burned-in', refused_burned_in: 0 },
    });
    const [copy] = await orthancFiles();
    const text = copy!.toString('latin1');
    for (const value of ['Lestrade', 'MRN-4402', patient.uid]) expect(text).not.toContain(value);
    await call('destination/set', { uuid: deidentifying, anonymization_id: basic.uuid }, admin);
  }, 90_000);

  it("refuses another account's profile on a destination and on a push, changing nothing", async () => {
    const destinationsBefore = await server.ctx.db.kysely.selectFrom('destinations').select('uuid').execute();
    // The partner account's admin cannot name the demo account's profile on their own destination…
    const partnerDestination = await call(
      'destination/add',
      {
        account_id: partnerAccount,
        name: 'Partner PACS',
        aetitle: 'PARTNERPACS',
        address: '127.0.0.1',
        port: 11999,
        can_push: 1,
        anonymization_id: basic.uuid,
      },
      partnerAdmin,
    );
    expect(partnerDestination.status).toBe(412);
    expect(partnerDestination.body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'anonymization_id',
    });
    // …nor the demo admin the partner's, on a destination or a push.
    const set = await call(
      'destination/set',
      { uuid: deidentifying, anonymization_id: partnerProfile },
      admin,
    );
    expect(set.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });
    const made = await call('destination/set', { uuid: deidentifying, anonymization_id: 'made-up' }, admin);
    expect(made.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });
    expect((await call('destination/get', { uuid: deidentifying }, admin)).body.anonymization_id).toBe(
      basic.uuid,
    );
    expect((await server.ctx.db.kysely.selectFrom('destinations').select('uuid').execute()).length).toBe(
      destinationsBefore.length,
    );

    const study = await studyOf('1.2.826.0.1.3680043.10.1071.1');
    const before = await pushCount();
    await call('destination/set', { uuid: deidentifying, anonymization_id: '' }, admin);
    const pushed = await call(
      'study/push',
      { uuid: study.uuid, destination_id: deidentifying, anonymization_id: partnerProfile },
      admin,
    );
    expect(pushed.status).toBe(412);
    expect(pushed.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });
    expect(await pushCount()).toBe(before);
    await call('destination/set', { uuid: deidentifying, anonymization_id: basic.uuid }, admin);
    // A clinician cannot change a destination at all.
    const byClinician = await call(
      'destination/set',
      { uuid: deidentifying, anonymization_id: '' },
      clinician,
    );
    expect(byClinician.status).not.toBe(200);
    expect((await call('destination/get', { uuid: deidentifying }, admin)).body.anonymization_id).toBe(
      basic.uuid,
    );
  });

  it('fails the attempt rather than send identified files when the profile is gone', async () => {
    await clearOrthanc();
    const doomed = (await call('anonymization/add', { account_id: account, name: 'Doomed' }, admin)).body;
    await call('destination/set', { uuid: deidentifying, anonymization_id: doomed.uuid }, admin);
    await call('anonymization/delete', { uuid: doomed.uuid }, admin);
    const study = await studyOf('1.2.826.0.1.3680043.10.1071.1');
    await call('study/push', { uuid: study.uuid, destination_id: deidentifying }, admin).then((r) =>
      expect(r.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' }),
    );
    // Cleared, the destination sends the stored files as they are again.
    await call('destination/set', { uuid: deidentifying, anonymization_id: '' }, admin);
    expect((await call('destination/get', { uuid: deidentifying }, admin)).body.anonymization_id).toBeNull();
  });
});
