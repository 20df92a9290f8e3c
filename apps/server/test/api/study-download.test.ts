import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

interface StudyRef {
  uuid: string;
  study_uid: string;
  namespace_id: string;
}

/** Every regular file under dir, relative paths. */
function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(dir, f)).isFile(),
  );
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe.each(DIALECTS)('study ZIP download on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let studies: StudyRef[];
  let intakeStudy: StudyRef;
  let work: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    const db = server.ctx.db.kysely;
    const inGroup = (name: string) =>
      db
        .selectFrom('studies')
        .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
        .select(['studies.uuid', 'studies.study_uid', 'studies.namespace_id'])
        .where('groups.name', '=', name)
        .where('studies.deleted', 'is', null)
        .orderBy('studies.uuid')
        .execute();
    studies = await inGroup('Emergency');
    intakeStudy = (await inGroup('PACS Intake'))[0]!;
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-test-'));
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const instancesOf = (uuid: string) =>
    server.ctx.db.kysely
      .selectFrom('instances')
      .innerJoin('series', 'series.uuid', 'instances.series_uuid')
      .select(['instances.sha256', 'instances.size', 'series.series_uid'])
      .where('instances.study_uuid', '=', uuid)
      .execute();

  const storageUrl = (s: StudyRef, query: Record<string, string>) =>
    `${server.url}/api/v3/storage/study/${s.namespace_id}/${s.study_uid}/download?${new URLSearchParams(query).toString()}`;

  /** Saves the archive, checks it with unzip -t and extracts it; answers the extraction dir. */
  async function fetchZip(response: Response, name: string): Promise<string> {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w.]+\.zip"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(Number(response.headers.get('content-length')));
    const zip = path.join(work, `${name}.zip`);
    fs.writeFileSync(zip, bytes);
    execFileSync('unzip', ['-tq', zip]); // CRCs and structure
    const dir = path.join(work, name);
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    return dir;
  }

  function dicomdirRecords(dir: string): string[] {
    const dicomdir = path.join(dir, 'DICOMDIR');
    expect(execFileSync('dcmftest', [dicomdir]).toString()).toMatch(/^yes:/);
    const dump = execFileSync('dcmdump', ['+P', '0004,1430', dicomdir]).toString();
    return [...dump.matchAll(/CS \[(\w+)\]/g)].map((m) => m[1]!);
  }

  it('streams the whole study with the stored bytes and a valid DICOMDIR, and audits it', async () => {
    const study = studies[0]!;
    const dir = await fetchZip(
      await fetch(storageUrl(study, { bundle: 'dicom', phi_namespace: study.namespace_id, sid: clinician })),
      'whole',
    );
    const instances = await instancesOf(study.uuid);
    const files = filesUnder(dir).filter((f) => f.startsWith('DICOM/'));
    expect(files.every((f) => /^DICOM\/\d+\/\d+$/.test(f))).toBe(true);
    expect(files.map((f) => sha256(path.join(dir, f))).sort()).toEqual(instances.map((i) => i.sha256).sort());
    const records = dicomdirRecords(dir);
    expect(records.filter((r) => r === 'IMAGE')).toHaveLength(instances.length);
    expect(records.filter((r) => r === 'SERIES')).toHaveLength(
      new Set(instances.map((i) => i.series_uid)).size,
    );
    // Every referenced file exists in the archive (dcmdump prints ReferencedFileID as A\B\C).
    const refs = execFileSync('dcmdump', ['+P', '0004,1500', path.join(dir, 'DICOMDIR')]).toString();
    const ids = [...refs.matchAll(/CS \[([^\]]+)\]/g)].map((m) => m[1]!.replace(/\\/g, '/'));
    expect(ids.sort()).toEqual(files.sort());

    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'STUDY_DOWNLOAD')
      .where('object_id', '=', study.uuid)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.detail!)).toMatchObject({ bundle: 'dicom', instances: instances.length });
  });

  it('takes only the chosen series, also on POST', async () => {
    const study = studies[1]!;
    const instances = await instancesOf(study.uuid);
    const seriesUid = instances[0]!.series_uid;
    const response = await fetch(storageUrl(study, {}), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sid: clinician, series: JSON.stringify([seriesUid]) }),
    });
    const dir = await fetchZip(response, 'series');
    const wanted = instances.filter((i) => i.series_uid === seriesUid);
    const files = filesUnder(dir).filter((f) => f.startsWith('DICOM/'));
    expect(files.map((f) => sha256(path.join(dir, f))).sort()).toEqual(wanted.map((i) => i.sha256).sort());
    expect(dicomdirRecords(dir).filter((r) => r === 'SERIES')).toHaveLength(1);
  });

  it('puts several studies in one archive with study/download', async () => {
    const chosen = studies.slice(0, 3);
    const response = await fetch(`${server.url}/api/v3/study/download`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sid: clinician, uuids: chosen.map((s) => s.uuid) }),
    });
    const dir = await fetchZip(response, 'multi');
    const expected = (await Promise.all(chosen.map((s) => instancesOf(s.uuid)))).flat();
    const files = filesUnder(dir).filter((f) => f.startsWith('DICOM/'));
    expect(files.every((f) => /^DICOM\/[1-3]\/\d+\/\d+$/.test(f))).toBe(true);
    expect(files.map((f) => sha256(path.join(dir, f))).sort()).toEqual(expected.map((i) => i.sha256).sort());
    const records = dicomdirRecords(dir);
    expect(records.filter((r) => r === 'STUDY')).toHaveLength(3);
    expect(records.filter((r) => r === 'IMAGE')).toHaveLength(expected.length);
  });

  it('streams an ISO 9660 image with the same files and a DICOMDIR whose file IDs are its paths', async () => {
    const study = studies[0]!;
    const response = await fetch(
      storageUrl(study, { bundle: 'iso', phi_namespace: study.namespace_id, sid: clinician }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-iso9660-image');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w.]+\.iso"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(Number(response.headers.get('content-length')));
    expect(bytes.length % 2048).toBe(0);
    const iso = path.join(work, 'study.iso');
    fs.writeFileSync(iso, bytes);

    // isoinfo (genisoimage) reads the descriptors, path table and directories.
    const info = execFileSync('isoinfo', ['-d', '-i', iso]).toString();
    expect(info).toMatch(/Volume id: IMGINBOX/);
    expect(info).toMatch(new RegExp(`Volume size is: ${bytes.length / 2048}\\b`));
    const listed = execFileSync('isoinfo', ['-f', '-i', iso])
      .toString()
      .trim()
      .split('\n')
      .map((line) => line.replace(/;1$/, '').replace(/\.$/, ''));
    const instances = await instancesOf(study.uuid);
    const files = listed.filter((p) => /^\/DICOM\/\d+\/\d+$/.test(p));
    expect(files).toHaveLength(instances.length);
    expect(listed).toContain('/DICOMDIR');

    // Extract every file with isoinfo: the stored bytes, and DICOM files dcmtk accepts.
    const dir = path.join(work, 'iso');
    for (const file of ['/DICOMDIR', ...files]) {
      const target = path.join(dir, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(
        target,
        execFileSync('isoinfo', ['-i', iso, '-x', `${file}.;1`], { maxBuffer: 1 << 28 }),
      );
    }
    expect(files.map((f) => sha256(path.join(dir, f))).sort()).toEqual(instances.map((i) => i.sha256).sort());
    expect(execFileSync('dcmftest', [path.join(dir, files[0]!)]).toString()).toMatch(/^yes:/);
    const records = dicomdirRecords(dir);
    expect(records.filter((r) => r === 'IMAGE')).toHaveLength(instances.length);
    const refs = execFileSync('dcmdump', ['+P', '0004,1500', path.join(dir, 'DICOMDIR')]).toString();
    const ids = [...refs.matchAll(/CS \[([^\]]+)\]/g)].map((m) => `/${m[1]!.replace(/\\/g, '/')}`);
    expect(ids.sort()).toEqual(files.sort());

    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'STUDY_DOWNLOAD')
      .where('object_id', '=', study.uuid)
      .execute();
    expect(audit.map((a) => JSON.parse(a.detail!).bundle)).toContain('iso');
  });

  it('refuses without permission, for hidden studies and for bad input, with clear errors', async () => {
    const study = studies[0]!;
    const json = async (r: Response) => ({ status: r.status, body: (await r.json()) as any });
    const cases: [string, Promise<Response>, number, string][] = [
      ['viewer', fetch(storageUrl(study, { sid: viewer })), 412, 'NOT_PERMITTED'],
      ['other group', fetch(storageUrl(intakeStudy, { sid: clinician })), 412, 'NOT_FOUND'],
      ['no session', fetch(storageUrl(study, {})), 401, 'EXPIRED'],
      ['bad bundle', fetch(storageUrl(study, { sid: clinician, bundle: 'rar' })), 412, 'INVALID_FIELD'],
      ['viewer iso', fetch(storageUrl(study, { sid: viewer, bundle: 'iso' })), 412, 'NOT_PERMITTED'],
      ['unknown series', fetch(storageUrl(study, { sid: clinician, series: '["1.2.3"]' })), 412, 'NOT_FOUND'],
      [
        'wrong phi namespace',
        fetch(storageUrl(study, { sid: clinician, phi_namespace: intakeStudy.namespace_id })),
        412,
        'NOT_FOUND',
      ],
      ['no uuids', fetch(`${server.url}/api/v3/study/download?sid=${clinician}`), 412, 'MISSING_FIELDS'],
      [
        'mixed selection',
        fetch(
          `${server.url}/api/v3/study/download?sid=${clinician}&uuids=${JSON.stringify([study.uuid, intakeStudy.uuid])}`,
        ),
        412,
        'NOT_FOUND',
      ],
      [
        'bad uuids',
        fetch(`${server.url}/api/v3/study/download?sid=${clinician}&uuids=%5Bnot-json`),
        412,
        'INVALID_FIELD',
      ],
    ];
    const before = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'STUDY_DOWNLOAD')
      .executeTakeFirstOrThrow();
    for (const [name, request, status, errorType] of cases) {
      const { status: got, body } = await json(await request);
      expect({ name, got, type: body.error_type }).toEqual({ name, got: status, type: errorType });
    }
    const after = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'STUDY_DOWNLOAD')
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a deleted study: only view and restore remain', async () => {
    const study = studies[studies.length - 1]!;
    await server.ctx.db.kysely
      .updateTable('studies')
      .set({ deleted: Date.now() })
      .where('uuid', '=', study.uuid)
      .execute();
    const response = await fetch(storageUrl(study, { sid: clinician }));
    expect(response.status).toBe(412);
    expect(((await response.json()) as any).error_type).toBe('NOT_PERMITTED');
    await server.ctx.db.kysely
      .updateTable('studies')
      .set({ deleted: null })
      .where('uuid', '=', study.uuid)
      .execute();
  });
});
