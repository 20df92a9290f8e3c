import fs from 'node:fs';
import path from 'node:path';
import dcmjs from 'dcmjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

function dictOf(bytes: Uint8Array) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return dcmjs.data.DicomMessage.readFile(buffer as ArrayBuffer).dict;
}

/** The identifying values of a stored file (4+ characters): names and their parts, IDs, UIDs. */
function identifyingValues(bytes: Uint8Array): string[] {
  const dict = dictOf(bytes);
  const values: string[] = [];
  for (const tag of [
    '00100010',
    '00100020',
    '0020000D',
    '0020000E',
    '00080018',
    '00080050',
    '00100030',
    '00080080',
  ]) {
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
 * The demo world's Teaching Files group de-identifies what is shared into it (Basic Profile + Clean
 * Descriptors, issue 33): the share stores a de-identified copy under new UIDs (the same each time
 * within the account), the original is never modified, reports do not follow, and a study whose
 * files may carry burned-in text is refused with the reason.
 */
describe.each(DIALECTS)('sharing into a de-identifying group on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let teaching: { uuid: string; namespace_id: string };
  let study: {
    uuid: string;
    study_uid: string;
    namespace_id: string;
    account_id: string;
    patient_name: string;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    teaching = (await server.api.groups(admin)).find((g) => g.name === 'Teaching Files')!;
    study = await server.ctx.db.kysely
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select([
        'studies.uuid',
        'studies.study_uid',
        'studies.namespace_id',
        'studies.account_id',
        'studies.patient_name',
      ])
      .where('groups.name', '=', 'Emergency')
      .where('studies.deleted', 'is', null)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('series')
            .select('series.uuid')
            .whereRef('series.study_uuid', '=', 'studies.uuid')
            .where('series.modality', 'in', ['CT', 'MR']),
        ),
      )
      .orderBy('studies.uuid')
      .executeTakeFirstOrThrow();
  });
  afterAll(() => server?.stop());

  const blobsOf = async (studyUuid: string) => {
    const rows = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', studyUuid)
      .execute();
    return Promise.all(rows.map((r) => server.ctx.services.blobs.read(r.blob_key)));
  };
  const studiesIn = (namespaceId: string) =>
    server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid', 'patient_name', 'patientid'])
      .where('namespace_id', '=', namespaceId)
      .execute();

  it('stores a de-identified copy under new UIDs, leaving the original as it was', async () => {
    const originals = [...new Set((await blobsOf(study.uuid)).flatMap(identifyingValues))];
    const before = (await studiesIn(teaching.namespace_id)).map((s) => s.uuid);
    const answer = await server.api.call(
      'study/share',
      { uuid: study.uuid, group_id: teaching.uuid, message: 'For the Tuesday teaching round' },
      admin,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.deidentified).toMatchObject({ profile: 'Teaching Files', refused_burned_in: 0 });
    expect(answer.body.deidentified.instances).toBeGreaterThan(0);

    const copy = (await studiesIn(teaching.namespace_id)).find((s) => !before.includes(s.uuid))!;
    expect(copy.study_uid).not.toBe(study.study_uid);
    expect(copy.patient_name).toMatch(/^ANONYMOUS\^[0-9A-F]{12}$/);
    expect(copy.patientid).toMatch(/^ANON[0-9A-F]{12}$/);
    const copies = await blobsOf(copy.uuid);
    expect(copies).toHaveLength(answer.body.deidentified.instances);
    for (const bytes of copies) {
      const raw = Buffer.from(bytes).toString('latin1').toUpperCase();
      for (const value of originals) expect(raw.includes(value.toUpperCase()), value).toBe(false);
      expect(dictOf(bytes)['00120062']?.Value).toEqual(['YES']);
    }
    // What a member of the group sees of it.
    const got = await server.api.call('study/get', { uuid: copy.uuid }, admin);
    expect(JSON.stringify(got.body)).not.toContain(study.patient_name);

    // The original is untouched, and its de-identified download names the same new study UID.
    expect([...new Set((await blobsOf(study.uuid)).flatMap(identifyingValues))].sort()).toEqual(
      originals.sort(),
    );
    const profile = await server.ctx.services.deidentifier.ofGroup(study.account_id, teaching.uuid);
    const bound = await server.ctx.services.deidentifier.bind(study.account_id, profile!.uuid);
    const again = bound.apply((await blobsOf(study.uuid))[0]!);
    expect(again.refused ? '' : again.result.studyInstanceUid).toBe(copy.study_uid);

    // Sharing again refreshes the message only: still one copy.
    expect(
      (await server.api.call('study/share', { uuid: study.uuid, group_id: teaching.uuid }, admin)).status,
    ).toBe(200);
    expect(
      (await studiesIn(teaching.namespace_id)).filter((s) => s.study_uid === copy.study_uid),
    ).toHaveLength(1);
  });

  it('refuses a study whose files may carry burned-in text, storing nothing', async () => {
    const file = path.join(PYDICOM, 'SC_rgb_small_odd.dcm');
    expect([200, 202]).toContain(
      (await server.api.upload(admin, study.namespace_id, fs.readFileSync(file))).status,
    );
    const studyUid = String(dictOf(fs.readFileSync(file))['0020000D']!.Value[0]);
    const sc = await server.ctx.db.kysely
      .selectFrom('studies')
      .select('uuid')
      .where('study_uid', '=', studyUid)
      .where('namespace_id', '=', study.namespace_id)
      .executeTakeFirstOrThrow();
    const before = await studiesIn(teaching.namespace_id);
    const answer = await server.api.call('study/share', { uuid: sc.uuid, group_id: teaching.uuid }, admin);
    expect([answer.body.error_type, answer.body.error_subtype]).toEqual(['NOT_PERMITTED', 'burned_in_text']);
    expect(await studiesIn(teaching.namespace_id)).toHaveLength(before.length);
    const shares = await server.ctx.db.kysely
      .selectFrom('study_shares')
      .select('uuid')
      .where('study_uuid', '=', sc.uuid)
      .execute();
    expect(shares).toEqual([]);
  });
});
