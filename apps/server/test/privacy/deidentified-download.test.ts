import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dcmjs from 'dcmjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

interface StudyRef {
  uuid: string;
  study_uid: string;
  namespace_id: string;
  account_id: string;
}

/** The identifying values of a stored file a de-identified copy must not carry (4+ characters). */
function identifyingValues(bytes: Uint8Array): string[] {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const dict = dcmjs.data.DicomMessage.readFile(buffer as ArrayBuffer).dict;
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
    '00080090',
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

function readDict(file: string) {
  const bytes = fs.readFileSync(file);
  return dcmjs.data.DicomMessage.readFile(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
  ).dict;
}

/**
 * The de-identified download (storage/study/…/download?anonymize=1, issue 33): the ZIP holds the
 * study de-identified by the account's profile, and nothing of the original's identity survives
 * anywhere in it; pseudonyms are stable across downloads and differ between accounts; files that
 * may carry burned-in text are refused unless the profile keeps them.
 */
describe.each(DIALECTS)('de-identified download on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let partnerAdmin: string;
  let study: StudyRef;
  let profile: string;
  let work: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    clinician = await server.api.login('clinician@demo.local');
    partnerAdmin = await server.api.login('partner@demo.local');
    study = await server.ctx.db.kysely
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid', 'studies.study_uid', 'studies.namespace_id', 'studies.account_id'])
      .where('groups.name', '=', 'Emergency')
      .where('studies.deleted', 'is', null)
      // A CT or MR exam: no text burned in (the secondary-capture case has its own test below).
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
    const added = await server.api.call(
      'anonymization/add',
      { account_id: study.account_id, name: 'Teaching', options: '["cleanDescriptors"]' },
      admin,
    );
    profile = added.body.uuid;
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'deid-zip-'));
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const url = (s: StudyRef, query: Record<string, string>) =>
    `${server.url}/api/v3/storage/study/${s.namespace_id}/${s.study_uid}/download?${new URLSearchParams(query).toString()}`;

  async function unzip(response: Response, name: string): Promise<string[]> {
    if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(Number(response.headers.get('content-length')));
    expect(response.headers.get('content-disposition')).toMatch(/filename="deidentified_\d{8}\.zip"/);
    const zip = path.join(work, `${name}.zip`);
    fs.writeFileSync(zip, bytes);
    execFileSync('unzip', ['-tq', zip]);
    const dir = path.join(work, name);
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    return (fs.readdirSync(dir, { recursive: true }) as string[])
      .map((f) => path.join(dir, f))
      .filter((f) => fs.statSync(f).isFile())
      .sort();
  }

  async function storedFiles(s: StudyRef): Promise<Buffer[]> {
    const rows = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', s.uuid)
      .execute();
    return Promise.all(rows.map((r) => server.ctx.services.blobs.read(r.blob_key)));
  }

  it('answers a ZIP in which no original name, ID or UID survives, marked as de-identified', async () => {
    const originals = [...new Set((await storedFiles(study)).flatMap(identifyingValues))];
    expect(originals.length).toBeGreaterThan(3);
    const files = await unzip(
      await fetch(url(study, { anonymize: '1', anonymization_id: profile, sid: admin })),
      'first',
    );
    const dicom = files.filter((f) => !f.endsWith('DICOMDIR'));
    expect(dicom.length).toBeGreaterThan(0);
    for (const file of files) {
      const raw = fs.readFileSync(file).toString('latin1').toUpperCase();
      for (const value of originals)
        expect(raw.includes(value.toUpperCase()), `${value} in ${file}`).toBe(false);
    }
    for (const file of dicom) {
      const dict = readDict(file);
      expect(dict['00120062']?.Value).toEqual(['YES']);
      expect(dict['00120063']?.Value).toContain('Clean Descriptors Option');
      expect(String((dict['00100010']?.Value?.[0] as { Alphabetic: string }).Alphabetic)).toMatch(
        /^ANONYMOUS\^[0-9A-F]{12}$/,
      );
    }
    // The stored study is untouched.
    expect([...new Set((await storedFiles(study)).flatMap(identifyingValues))].sort()).toEqual(
      originals.sort(),
    );
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'STUDY_DOWNLOAD')
      .where('object_id', '=', study.uuid)
      .execute();
    expect(audit.some((a) => String(a.detail).includes(profile))).toBe(true);
  });

  it('gives the same copy every time, and another account other pseudonyms', async () => {
    const first = await unzip(
      await fetch(url(study, { anonymize: '1', anonymization_id: profile, sid: admin })),
      'a',
    );
    const second = await unzip(
      await fetch(url(study, { anonymize: '1', anonymization_id: profile, sid: admin })),
      'b',
    );
    expect(second.length).toBe(first.length);
    // Every instance identical (the DICOMDIR's own UID is new at each download).
    for (const [i, file] of first.entries())
      if (!file.endsWith('DICOMDIR'))
        expect(fs.readFileSync(second[i]!).equals(fs.readFileSync(file)), file).toBe(true);

    const partnerAccount = (
      await server.ctx.db.kysely
        .selectFrom('accounts')
        .select('uuid')
        .where('vanity', '=', 'partner')
        .executeTakeFirstOrThrow()
    ).uuid;
    const theirs = (
      await server.api.call('anonymization/add', { account_id: partnerAccount, name: 'Theirs' }, partnerAdmin)
    ).body;
    const source = (await storedFiles(study))[0]!;
    const deidentifier = server.ctx.services.deidentifier;
    const ours = (await deidentifier.bind(study.account_id, profile)).apply(source);
    const other = (await deidentifier.bind(partnerAccount, theirs.uuid)).apply(source);
    expect(ours.refused || other.refused).toBe(false);
    if (ours.refused || other.refused) return;
    expect(other.result.patientId).not.toBe(ours.result.patientId);
    expect(other.result.studyInstanceUid).not.toBe(ours.result.studyInstanceUid);
  });

  it('refuses without study_download_anonymized, and a profile of another account, changing nothing', async () => {
    const refused = await fetch(url(study, { anonymize: '1', anonymization_id: profile, sid: clinician }));
    expect(((await refused.json()) as { error_type: string }).error_type).toBe('NOT_PERMITTED');
    const missing = await fetch(url(study, { anonymize: '1', sid: admin }));
    expect(((await missing.json()) as { error_type: string }).error_type).toBe('MISSING_FIELDS');
    const partnerAccount = (
      await server.ctx.db.kysely
        .selectFrom('accounts')
        .select('uuid')
        .where('vanity', '=', 'partner')
        .executeTakeFirstOrThrow()
    ).uuid;
    const theirs = (
      await server.api.call('anonymization/add', { account_id: partnerAccount, name: 'Other' }, partnerAdmin)
    ).body;
    const foreign = await fetch(url(study, { anonymize: '1', anonymization_id: theirs.uuid, sid: admin }));
    const body = (await foreign.json()) as { error_type: string; error_subtype: string };
    expect([body.error_type, body.error_subtype]).toEqual(['INVALID_FIELD', 'anonymization_id']);
  });

  it('refuses a secondary capture (text may be burned in) unless the profile keeps such files', async () => {
    const namespace = study.namespace_id;
    const bytes = fs.readFileSync(path.join(PYDICOM, 'SC_rgb_small_odd.dcm'));
    expect([200, 202]).toContain((await server.api.upload(admin, namespace, bytes)).status);
    const studyUid = String(readDict(path.join(PYDICOM, 'SC_rgb_small_odd.dcm'))['0020000D']!.Value[0]);
    const sc = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid', 'namespace_id', 'account_id'])
      .where('study_uid', '=', studyUid)
      .where('namespace_id', '=', namespace)
      .executeTakeFirstOrThrow();
    const refused = await fetch(url(sc, { anonymize: '1', anonymization_id: profile, sid: admin }));
    const body = (await refused.json()) as { error_type: string; error_subtype: string };
    expect([body.error_type, body.error_subtype]).toEqual(['NOT_PERMITTED', 'burned_in_text']);

    const keeping = (
      await server.api.call(
        'anonymization/add',
        { account_id: sc.account_id, name: 'Keeps pixels', keep_burned_in: 1 },
        admin,
      )
    ).body;
    const kept = await fetch(url(sc, { anonymize: '1', anonymization_id: keeping.uuid, sid: admin }));
    expect(kept.headers.get('x-deidentification-refused-burned-in')).toBe('0');
    const files = await unzip(kept, 'kept');
    expect(files.filter((f) => !f.endsWith('DICOMDIR'))).toHaveLength(1);
  });
});
