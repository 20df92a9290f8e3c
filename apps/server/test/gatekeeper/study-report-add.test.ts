/**
 * study/report/add: a text report becomes a Basic Text SR, a PDF an Encapsulated PDF, each a new
 * series of the study stored through the ingest pipeline, audited and listed by study/report/list;
 * the files are checked by dcmtk (dcmdump, dciodvfy, dcm2pdf). Refusals change nothing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dcmdump, dumpValue, hasTool, tempDir } from '../dicom/support.js';
import { minimalPdf } from '../support/non-dicom.js';
import { storedInstanceBytes } from '../support/blob-files.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe.each(DIALECTS)('study/report/add on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let partner: string;
  let study: {
    uuid: string;
    study_uid: string;
    patient_name: string;
    patientid: string;
    accession_number: string;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, { UPLOAD_MAX_BYTES: String(256 * 1024) });
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    partner = await server.api.login('partner@demo.local');
    const emergency = await server.api.namespaceOf(clinician, 'Emergency');
    study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid', 'patient_name', 'patientid', 'accession_number'])
      .where('namespace_id', '=', emergency)
      .where('accession_number', '!=', '')
      .where('deleted', 'is', null)
      .executeTakeFirstOrThrow();
  });
  afterAll(() => server?.stop());

  /** What a refusal must leave as it was: the study's instances, series and audit events. */
  const state = async () => {
    const db = server.ctx.db.kysely;
    const [instances, studyRow, events] = await Promise.all([
      db.selectFrom('instances').select('sop_instance_uid').where('study_uuid', '=', study.uuid).execute(),
      db
        .selectFrom('studies')
        .select(['series_count', 'image_count'])
        .where('uuid', '=', study.uuid)
        .executeTakeFirstOrThrow(),
      db.selectFrom('audit_events').select('action').where('object_id', '=', study.uuid).execute(),
    ]);
    return {
      instances: instances.map((i) => i.sop_instance_uid).sort(),
      series: Number(studyRow.series_count),
      images: Number(studyRow.image_count),
      events: events.filter((e) => e.action !== 'STUDY_VIEW').length,
    };
  };

  /** A multipart report: the sid goes in the Authorization header, the other fields in the body. */
  const addPdf = async (
    { sid, ...fields }: Record<string, string>,
    file?: { bytes: Uint8Array; name: string },
  ) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    if (file) body.append('file', new Blob([file.bytes], { type: 'application/pdf' }), file.name);
    const response = await fetch(`${server.url}/api/v3/study/report/add`, {
      method: 'POST',
      body,
      headers: sid ? { authorization: `Bearer ${sid}` } : {},
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  const storedFile = async (sopInstanceUid: string, name: string) =>
    tmp.write(`${dialect}-${name}`, await storedInstanceBytes(server, sopInstanceUid));

  const checkIod = (file: string) => {
    if (!hasTool('dciodvfy')) return;
    const iod = spawnSync('dciodvfy', [file], { encoding: 'utf8' });
    expect(`${iod.stdout}${iod.stderr}`, file).not.toMatch(/^Error/m);
  };

  it('stores a text report as a Basic Text SR series of the study, audited and listed', async () => {
    const before = await state();
    const added = await server.api.call(
      'study/report/add',
      { uuid: study.uuid, title: 'Emergency read', text: '  No bleed.\nNo fracture.  ', final: '1' },
      clinician,
    );
    expect(added.body).toMatchObject({
      status: 'OK',
      report: {
        kind: 'SR',
        status: 'Final',
        author: 'Claire Clinician',
        title: 'Emergency read',
        text: 'No bleed.\nNo fracture.',
        time: expect.any(Number),
      },
    });
    const report = added.body.report;
    const after = await state();
    expect(after.series).toBe(before.series + 1);
    expect(after.images).toBe(before.images + 1);
    expect(after.instances).toContain(report.id);

    const listed = await server.api.call('study/report/list', { uuid: study.uuid }, viewer);
    expect(listed.body.reports).toContainEqual(report);

    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('object_id', '=', study.uuid)
      .where('action', 'in', ['REPORT_ADD', 'IMAGE_ADD'])
      .execute();
    const details = events.map((e) => ({
      action: e.action,
      detail: typeof e.detail === 'string' ? JSON.parse(e.detail) : e.detail,
    }));
    expect(details).toContainEqual({
      action: 'REPORT_ADD',
      detail: { kind: 'SR', title: 'Emergency read', status: 'Final', sop_instance_uid: report.id },
    });
    expect(details.some((e) => e.action === 'IMAGE_ADD' && e.detail.source === 'report')).toBe(true);
    // The study's history (audit/object) shows it.
    const history = await server.api.call('audit/object', { uuid: study.uuid }, clinician);
    expect(history.body.events.map((e: { action: string }) => e.action)).toContain('REPORT_ADD');

    const file = await storedFile(report.id, 'report.dcm');
    const dump = dcmdump(file);
    expect(dump.errors).toEqual([]);
    expect(dump.stdout).toMatch(/^\(0008,0016\) UI =BasicTextSRStorage/m);
    expect(dumpValue(dump.stdout, '0008,0060')).toBe('SR');
    expect(dumpValue(dump.stdout, '0010,0010')).toBe(study.patient_name);
    expect(dumpValue(dump.stdout, '0010,0020')).toBe(study.patientid);
    expect(dumpValue(dump.stdout, '0008,0050')).toBe(study.accession_number);
    expect(dumpValue(dump.stdout, '0020,000d')).toBe(study.study_uid);
    expect(dumpValue(dump.stdout, '0040,a491')).toBe('COMPLETE');
    expect(dump.stdout).toMatch(/\(0040,a075\) PN \[Clinician\^Claire\]/);
    checkIod(file);
  });

  it('stores a PDF as an Encapsulated PDF series, preliminary until final', async () => {
    const pdf = minimalPdf('Outside read');
    const added = await addPdf(
      { sid: clinician, uuid: study.uuid, title: 'Outside read', final: '0' },
      { bytes: pdf, name: 'read.pdf' },
    );
    expect(added.body).toMatchObject({
      status: 'OK',
      report: {
        kind: 'PDF',
        status: 'Preliminary',
        author: 'Claire Clinician',
        title: 'Outside read',
        text: null,
      },
    });
    const listed = await server.api.call('study/report/list', { uuid: study.uuid }, clinician);
    expect(listed.body.reports).toContainEqual(added.body.report);

    const file = await storedFile(added.body.report.id, 'report-pdf.dcm');
    const dump = dcmdump(file);
    expect(dump.errors).toEqual([]);
    expect(dumpValue(dump.stdout, '0008,0060')).toBe('DOC');
    expect(dumpValue(dump.stdout, '0020,000d')).toBe(study.study_uid);
    expect(dumpValue(dump.stdout, '0008,0050')).toBe(study.accession_number);
    checkIod(file);
    const back = path.join(tmp.dir, `${dialect}-back.pdf`);
    expect(spawnSync('dcm2pdf', [file, back]).status).toBe(0);
    expect(new Uint8Array(fs.readFileSync(back))).toEqual(pdf);
  });

  it('refuses empty text, a file that is not a PDF, a too large PDF, a reader and a stranger, changing nothing', async () => {
    const before = await state();
    const text = (params: Record<string, string>, sid = clinician) =>
      server.api.call('study/report/add', { uuid: study.uuid, ...params }, sid);

    expect((await text({ text: '   ' })).body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    expect((await text({ text: 'x'.repeat(20_001) })).body).toMatchObject({ error_type: 'INVALID_FIELD' });
    expect((await text({ text: 'Read.', final: 'yes' })).body).toMatchObject({ error_type: 'INVALID_FIELD' });
    expect((await text({ text: 'Read.' }, viewer)).body).toMatchObject({ error_type: 'NOT_PERMITTED' });
    expect((await text({ text: 'Read.' }, partner)).body).toMatchObject({ error_type: 'NOT_FOUND' });
    expect(
      (
        await server.api.call(
          'study/report/add',
          { uuid: '00000000-0000-4000-8000-000000000000', text: 'x' },
          clinician,
        )
      ).body,
    ).toMatchObject({ error_type: 'NOT_FOUND' });

    const notPdf = await addPdf(
      { sid: clinician, uuid: study.uuid },
      { bytes: new TextEncoder().encode('just some text'), name: 'read.pdf' },
    );
    expect(notPdf.body).toMatchObject({ error_type: 'INVALID_FILE_TYPE' });
    const cut = minimalPdf('Cut').subarray(0, 100);
    expect(
      (await addPdf({ sid: clinician, uuid: study.uuid }, { bytes: cut, name: 'cut.pdf' })).body,
    ).toMatchObject({
      error_type: 'INVALID_FILE_CONTENT',
    });
    const huge = new Uint8Array(300 * 1024);
    huge.set(minimalPdf('Big'));
    const tooLarge = await addPdf({ sid: clinician, uuid: study.uuid }, { bytes: huge, name: 'big.pdf' });
    expect(tooLarge.body).toMatchObject({ error_type: 'FILE_TOO_LARGE' });
    const both = await addPdf(
      { sid: clinician, uuid: study.uuid, text: 'Read.' },
      { bytes: minimalPdf('Both'), name: 'both.pdf' },
    );
    expect(both.body).toMatchObject({ error_type: 'INVALID_FIELD' });
    const viewerPdf = await addPdf(
      { sid: viewer, uuid: study.uuid },
      { bytes: minimalPdf('V'), name: 'v.pdf' },
    );
    expect(viewerPdf.body).toMatchObject({ error_type: 'NOT_PERMITTED' });

    expect(await state()).toEqual(before);
  });
});
