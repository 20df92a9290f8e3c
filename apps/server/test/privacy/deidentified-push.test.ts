import dcmjs from 'dcmjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination } from '../support/demo-world.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import { identifyingValues, usePrivacyWorld } from '../support/privacy-world.js';
import { DIALECTS } from '../support/test-server.js';
import { until } from '../support/until.js';

interface Attempt {
  uuid: string;
  status: string;
  reason: string | null;
  image_count: number;
  images_sent: number;
  images_failed: number;
  deidentified?: { profile: string; refused_burned_in: number };
}

/**
 * A push to a destination that applies a de-identification profile (issue 33, decision 0071): the
 * PACS (Orthanc in its own network namespace) receives de-identified copies made by the one engine,
 * files that may show burned-in text are refused unless the profile keeps them and the refusal is on
 * the attempt, and no account may name another account's profile.
 */
describe.each(DIALECTS)('de-identified push to a PACS on %s', (dialect) => {
  const w = usePrivacyWorld(dialect, { PUSH_RETRY_MS: '200' });
  let peer: OrthancPacs;
  let basic: { uuid: string; name: string };
  let keeping: { uuid: string; name: string };
  let deidentifying: string;

  const pushes = async (study: string) =>
    (await w.call('study/push/list', { uuid: study }, w.admin)).body.pushes as Attempt[];
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
    w.server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid'])
      .where('study_uid', '=', studyUid)
      .executeTakeFirstOrThrow();
  const upload = async (files: Buffer[]) => {
    for (const bytes of files)
      expect((await w.server.api.upload(w.admin, w.groups['Emergency']!.namespace_id, bytes)).status).toBe(
        202,
      );
  };

  beforeAll(async () => {
    peer = await startOrthancPacs('inbox-deid-push-');
    basic = await w.addProfile('Research PACS');
    keeping = await w.addProfile('Keeps burned-in', { keep_burned_in: 1, options: 'cleanDescriptors' });
    deidentifying = await addDestination(w.server.api, w.admin, w.account, {
      name: 'Research Orthanc',
      aetitle: 'ORTHANC',
      port: peer.toOrthanc.port,
      can_push: 1,
      anonymization_id: basic.uuid,
    });
  }, 120_000);

  afterAll(async () => {
    await peer?.stop();
  });

  it('keeps the profile on the destination, answered and audited', async () => {
    const got = await w.call('destination/get', { uuid: deidentifying }, w.admin);
    expect(got.body.anonymization_id).toBe(basic.uuid);
    const added = await w.server.ctx.db.kysely
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
      w.sample('CT_small.dcm', patient),
      w.sample('MR_small.dcm', patient),
      w.sample('SC_rgb_small_odd.dcm', patient),
    ];
    const originals = [...new Set(files.flatMap(identifyingValues))];
    expect(originals).toEqual(expect.arrayContaining(['Garcia', 'Maria', 'MRN-7781', patient.uid]));
    await upload(files);
    const study = await studyOf(patient.uid);

    // A push cannot weaken the destination's own profile with another.
    const weaker = await w.call(
      'study/push',
      { uuid: study.uuid, destination_id: deidentifying, anonymization_id: keeping.uuid },
      w.admin,
    );
    expect(weaker.status).toBe(412);
    expect(weaker.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });

    const started = await w.call('study/push', { uuid: study.uuid, destination_id: deidentifying }, w.admin);
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

    const events = await w.server.ctx.db.kysely
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
    const stored = await w.server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', study.uuid)
      .execute();
    const storedValues = (
      await Promise.all(stored.map((r) => w.server.ctx.services.blobs.read(r.blob_key)))
    ).flatMap(identifyingValues);
    expect(storedValues).toEqual(expect.arrayContaining(['Garcia', 'MRN-7781']));
  }, 90_000);

  it('refuses a study whose every file may show burned-in text: F, nothing sent, the reason on the attempt', async () => {
    await clearOrthanc();
    const patient = { uid: '1.2.826.0.1.3680043.10.1071.2', patient: 'Lestrade^Greg', id: 'MRN-4402' };
    await upload([w.sample('SC_rgb_small_odd.dcm', patient)]);
    const study = await studyOf(patient.uid);
    await w.call('study/push', { uuid: study.uuid, destination_id: deidentifying }, w.admin);
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
    await w.call('destination/set', { uuid: deidentifying, anonymization_id: '' }, w.admin);
    await w.call(
      'study/push',
      { uuid: study.uuid, destination_id: deidentifying, anonymization_id: keeping.uuid },
      w.admin,
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
    await w.call('destination/set', { uuid: deidentifying, anonymization_id: basic.uuid }, w.admin);
  }, 90_000);

  it("refuses another account's profile on a destination and on a push, changing nothing", async () => {
    const destinationsBefore = await w.server.ctx.db.kysely
      .selectFrom('destinations')
      .select('uuid')
      .execute();
    // The partner account's admin cannot name the demo account's profile on their own destination…
    const partnerDestination = await w.call(
      'destination/add',
      {
        account_id: w.partnerAccount,
        name: 'Partner PACS',
        aetitle: 'PARTNERPACS',
        address: '127.0.0.1',
        port: 11999,
        can_push: 1,
        anonymization_id: basic.uuid,
      },
      w.partnerAdmin,
    );
    expect(partnerDestination.status).toBe(412);
    expect(partnerDestination.body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'anonymization_id',
    });
    // …nor the demo admin the partner's, on a destination or a push.
    const set = await w.call(
      'destination/set',
      { uuid: deidentifying, anonymization_id: w.partnerProfile },
      w.admin,
    );
    expect(set.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });
    const made = await w.call(
      'destination/set',
      { uuid: deidentifying, anonymization_id: 'made-up' },
      w.admin,
    );
    expect(made.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });
    expect((await w.call('destination/get', { uuid: deidentifying }, w.admin)).body.anonymization_id).toBe(
      basic.uuid,
    );
    expect((await w.server.ctx.db.kysely.selectFrom('destinations').select('uuid').execute()).length).toBe(
      destinationsBefore.length,
    );

    const study = await studyOf('1.2.826.0.1.3680043.10.1071.1');
    const before = await w.count('study_pushes');
    await w.call('destination/set', { uuid: deidentifying, anonymization_id: '' }, w.admin);
    const pushed = await w.call(
      'study/push',
      { uuid: study.uuid, destination_id: deidentifying, anonymization_id: w.partnerProfile },
      w.admin,
    );
    expect(pushed.status).toBe(412);
    expect(pushed.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' });
    expect(await w.count('study_pushes')).toBe(before);
    await w.call('destination/set', { uuid: deidentifying, anonymization_id: basic.uuid }, w.admin);
    // A clinician cannot change a destination at all.
    const byClinician = await w.call(
      'destination/set',
      { uuid: deidentifying, anonymization_id: '' },
      w.clinician,
    );
    expect(byClinician.status).not.toBe(200);
    expect((await w.call('destination/get', { uuid: deidentifying }, w.admin)).body.anonymization_id).toBe(
      basic.uuid,
    );
  });

  it('fails the attempt rather than send identified files when the profile is gone', async () => {
    await clearOrthanc();
    const doomed = await w.addProfile('Doomed');
    await w.call('destination/set', { uuid: deidentifying, anonymization_id: doomed.uuid }, w.admin);
    // Deleting it is refused while the destination names it (decision 0073), so it can be gone only
    // by a way round the api (a database restored from before it was added, a row removed by hand).
    expect((await w.call('anonymization/delete', { uuid: doomed.uuid }, w.admin)).body).toMatchObject({
      error_type: 'IN_USE',
      error_subtype: 'anonymization',
    });
    await w.server.ctx.db.kysely
      .deleteFrom('anonymization_profiles')
      .where('uuid', '=', doomed.uuid)
      .execute();
    const study = await studyOf('1.2.826.0.1.3680043.10.1071.1');
    await w
      .call('study/push', { uuid: study.uuid, destination_id: deidentifying }, w.admin)
      .then((r) =>
        expect(r.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'anonymization_id' }),
      );
    // Cleared, the destination sends the stored files as they are again.
    await w.call('destination/set', { uuid: deidentifying, anonymization_id: '' }, w.admin);
    expect(
      (await w.call('destination/get', { uuid: deidentifying }, w.admin)).body.anonymization_id,
    ).toBeNull();
  });
});
