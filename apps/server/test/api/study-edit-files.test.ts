import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { overwriteBlob, storedBlobKeys } from '../support/blob-files.js';

/** Edit MRN (lock, study/set, unlock) changes the stored DICOM files, not only the index. */
describe.each(DIALECTS)('study/set rewrites the stored files on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let study: { uuid: string; study_uid: string; namespace_id: string; patientid: string };
  let work: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    study = await server.ctx.db.kysely
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid', 'studies.study_uid', 'studies.namespace_id', 'studies.patientid'])
      .where('groups.name', '=', 'Emergency')
      .orderBy('studies.uuid')
      .executeTakeFirstOrThrow();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'edit-files-'));
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const instances = () =>
    server.ctx.db.kysely
      .selectFrom('instances')
      .select(['uuid', 'blob_key', 'sha256', 'size'])
      .where('study_uuid', '=', study.uuid)
      .orderBy('uuid')
      .execute();

  const dump = (file: string, tag: string) => execFileSync('dcmdump', ['+P', tag, file]).toString();
  /** A stored blob copied to a file of its own for dcmdump, read through the server's blob store. */
  let copies = 0;
  const storedCopy = async (key: string) => {
    const file = path.join(work, `stored-${++copies}.dcm`);
    fs.writeFileSync(file, await server.ctx.services.blobs.read(key));
    return file;
  };

  it('writes the new MRN into every file, keeps the old one in Original Attributes, collects old blobs', async () => {
    const before = await instances();
    expect(before.length).toBeGreaterThan(0);

    expect((await server.api.call('study/lock', { uuid: study.uuid }, clinician)).status).toBe(200);
    const set = await server.api.call(
      'study/set',
      { uuid: study.uuid, patientid: 'MRN-EDITED-1' },
      clinician,
    );
    expect(set.status).toBe(200);
    expect((await server.api.call('study/unlock', { uuid: study.uuid }, clinician)).status).toBe(200);

    const after = await instances();
    expect(after).toHaveLength(before.length);
    for (const [i, row] of after.entries()) {
      expect(row.blob_key).not.toBe(before[i]!.blob_key);
      const file = await storedCopy(row.blob_key);
      // The index describes the new file exactly.
      const bytes = fs.readFileSync(file);
      expect(bytes.length).toBe(Number(row.size));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256);
      expect(execFileSync('dcmftest', [file]).toString()).toMatch(/^yes:/);
      expect(dump(file, '0010,0020')).toMatch(/LO \[MRN-EDITED-1\]/);
      const original = dump(file, '0400,0561');
      expect(original).toContain(`[${study.patientid}]`);
      expect(dump(file, '0400,0565')).toMatch(/CS \[CORRECT\]/);
      expect(dump(file, '0400,0562')).toMatch(/DT \[\d{14}/);
      expect(dump(file, '0400,0563')).toMatch(/LO \[IMGINBOX/);
    }
    // The old files went: no instance uses them any more (the demo study is not shared).
    const kept = await Promise.all(before.map((i) => server.ctx.services.blobs.exists(i.blob_key)));
    expect(kept.filter(Boolean)).toEqual([]);

    const sizes = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['size', 'patientid'])
      .where('uuid', '=', study.uuid)
      .executeTakeFirstOrThrow();
    expect(sizes.patientid).toBe('MRN-EDITED-1');
    expect(Number(sizes.size)).toBe(after.reduce((sum, i) => sum + Number(i.size), 0));

    // History shows the edit with old → new.
    const history = await server.api.call(
      'audit/object',
      { uuid: study.uuid, 'filter.action.in': '["EDIT"]', reverse: 1 },
      clinician,
    );
    expect(history.body.events[0].detail).toMatchObject({
      before: { patientid: study.patientid },
      after: { patientid: 'MRN-EDITED-1' },
      files: before.length,
    });

    // The downloaded ZIP carries the new MRN too, and its DICOMDIR says the same.
    const response = await fetch(
      `${server.url}/api/v3/storage/study/${study.namespace_id}/${study.study_uid}/download?sid=${clinician}`,
    );
    const zip = path.join(work, 'edited.zip');
    fs.writeFileSync(zip, Buffer.from(await response.arrayBuffer()));
    const dir = path.join(work, 'edited');
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    expect(dump(path.join(dir, 'DICOM', '1', '1'), '0010,0020')).toMatch(/LO \[MRN-EDITED-1\]/);
    expect(dump(path.join(dir, 'DICOMDIR'), '0010,0020')).toMatch(/\[MRN-EDITED-1\]/);
  });

  it('a second edit appends a second Original Attributes item', async () => {
    expect(
      (await server.api.call('study/set', { uuid: study.uuid, patientid: 'MRN-EDITED-2' }, clinician)).status,
    ).toBe(200);
    const [row] = await instances();
    const file = await storedCopy(row!.blob_key);
    expect(dump(file, '0010,0020')).toMatch(/LO \[MRN-EDITED-2\]/);
    const items = dump(file, '0400,0561').match(/\(fffe,e000\) na \(Item/g) ?? [];
    // Two outer items, each with one Modified Attributes item.
    expect(items.length).toBe(4);
  });

  it('changes no file and no index row when a stored file is unreadable', async () => {
    const before = await instances();
    const broken = before[0]!.blob_key;
    const saved = await server.ctx.services.blobs.read(broken);
    await overwriteBlob(server, broken, Buffer.from('not dicom'));
    try {
      const set = await server.api.call('study/set', { uuid: study.uuid, patientid: 'MRN-NEVER' }, clinician);
      expect(set.status).toBe(500);
      expect(set.body.error_type).toBe('INTERNAL');
      expect(await instances()).toEqual(before);
      const row = await server.ctx.db.kysely
        .selectFrom('studies')
        .select('patientid')
        .where('uuid', '=', study.uuid)
        .executeTakeFirstOrThrow();
      expect(row.patientid).toBe('MRN-EDITED-2');
      // No stray blobs: every stored DICOM blob is one an instance references.
      const referenced = new Set(
        (await server.ctx.db.kysely.selectFrom('instances').select('blob_key').execute()).map(
          (r) => r.blob_key,
        ),
      );
      expect((await storedBlobKeys(server)).filter((key) => !referenced.has(key))).toEqual([]);
    } finally {
      await overwriteBlob(server, broken, saved);
    }
  });
});
