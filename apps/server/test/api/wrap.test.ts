/**
 * The non-DICOM upload: PDF, JPEG and PNG files wrapped into DICOM under one new study, through the
 * ingest pipeline, checked by independent readers (dciodvfy, dcmftest, dcmdump, dcm2pdf, dcmj2pnm).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localTodayIso, MESSAGES } from '@imaging-inbox/contract';
import { buildInstance } from '../../src/dicom/index.js';
import { baseSpec, dcmdump, dcmftest, dumpValue, hasTool, tempDir } from '../dicom/support.js';
import {
  greyAlphaPng,
  greyJpeg,
  minimalPdf,
  rgbPattern,
  rgbPng,
  subsampledJpeg,
  unsubsampledJpeg,
  wrapBody,
} from '../support/non-dicom.js';
import type { Upload } from '../support/non-dicom.js';
import { storedInstanceBytes } from '../support/blob-files.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { ingestState } from '../support/ingest-state.js';

const PDF_CLASS = '1.2.840.10008.5.1.4.1.1.104.1';
const SC_CLASS = '1.2.840.10008.5.1.4.1.1.7';

const FORM = {
  firstName: 'Ann',
  middleName: 'Marie',
  lastName: 'Lee',
  patientDOB: '1984-03-07',
  patientMRN: 'MRN-WRAP-1',
  patientGender: 'F',
  studyDate: '2026-05-04',
  studyTime: '14:05',
  studyDescription: 'Outside report',
};

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe.each(DIALECTS)('non-DICOM files wrapped into DICOM on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;

  const wrap = async (
    form: Record<string, string>,
    files: Upload[],
    options: { sid?: string; namespace?: string } = {},
  ) => {
    const body = wrapBody(form, files);
    const response = await fetch(
      `${server.url}/api/v3/storage/namespace/${options.namespace ?? emergency}/wrap?sid=${options.sid ?? sid}`,
      { method: 'POST', body },
    );
    return { status: response.status, body: (await response.json()) as any };
  };

  const counts = () => ingestState(server);

  /** The stored file of an instance, copied out for the dcmtk tools. */
  const storedFile = async (sopInstanceUid: string, name: string) =>
    tmp.write(`${dialect}-${name}`, await storedInstanceBytes(server, sopInstanceUid));

  beforeAll(async () => {
    server = await startTestServer(dialect, { UPLOAD_MAX_BYTES: String(256 * 1024) });
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
  });
  afterAll(() => server?.stop());

  it('reports the share-code setting of the namespace account', async () => {
    const answer = await server.api.call('namespace/share_code', { namespace_id: emergency }, sid);
    expect(answer.body).toMatchObject({
      status: 'OK',
      namespace_id: emergency,
      share_code: 'DEMO-HOSP',
      settings: { enable_dicom_wrapping: '1' },
    });
    const foreign = await server.api.call('namespace/share_code', { namespace_id: 'nope' }, sid);
    expect(foreign.body.error_type).toBe('NOT_FOUND');
  });

  it('wraps a PDF, JPEGs and PNGs under one new study with the form patient', async () => {
    const pdf = minimalPdf('Outside report for Ann Lee');
    const files: Upload[] = [
      { name: 'report.pdf', bytes: pdf, type: 'application/pdf' },
      { name: 'photo.jpg', bytes: subsampledJpeg(), type: 'image/jpeg' },
      { name: 'scan.jpg', bytes: await greyJpeg(33, 21) },
      { name: 'full.jpg', bytes: await unsubsampledJpeg(40, 30) },
      { name: 'chart.png', bytes: rgbPng(37, 23), type: 'image/png' },
      { name: 'overlay.png', bytes: greyAlphaPng(8, 4) },
    ];
    const answer = await wrap(FORM, files);
    expect(answer.status).toBe(202);
    expect(answer.body.study_uid).toMatch(/^2\.25\.\d{20,}$/);
    expect(answer.body.instances.map((i: any) => [i.filename, i.kind, i.sop_class_uid, i.duplicate])).toEqual(
      [
        ['report.pdf', 'pdf', PDF_CLASS, false],
        ['photo.jpg', 'jpeg', SC_CLASS, false],
        ['scan.jpg', 'jpeg', SC_CLASS, false],
        ['full.jpg', 'jpeg', SC_CLASS, false],
        ['chart.png', 'png', SC_CLASS, false],
        ['overlay.png', 'png', SC_CLASS, false],
      ],
    );
    const series = new Set(answer.body.instances.map((i: any) => i.series_uid));
    expect(series.size).toBe(files.length);

    const study = await server.api.get('study/get', { sid, uuid: answer.body.study_uuid });
    expect(study.body).toMatchObject({
      study_uid: answer.body.study_uid,
      patient_name: 'Lee^Ann^Marie',
      patientid: 'MRN-WRAP-1',
      patient_sex: 'F',
      patient_birth_date: '19840307',
      study_date: '20260504',
      study_time: '140500',
      study_description: 'Outside report',
      image_count: files.length,
      series_count: files.length,
      modality: 'DOC\\OT',
    });
    // The Summary's thumbnails: the PDF series has nothing to draw, so no URL; the images have one.
    const thumbnails = await server.api.get('study/thumbnails', { sid, uuid: answer.body.study_uuid });
    const urls = (thumbnails.body.thumbnails as { modality: string; url: string | null }[]).map((t) => [
      t.modality,
      t.url === null ? null : 'url',
    ]);
    expect(urls.filter(([m]) => m === 'DOC')).toEqual([['DOC', null]]);
    expect(urls.filter(([m]) => m === 'OT').every(([, url]) => url === 'url')).toBe(true);

    const created = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('object_id', '=', answer.body.study_uuid)
      .where('action', 'in', ['CREATE', 'IMAGE_ADD'])
      .execute();
    expect(created.map((e) => e.action).sort()).toEqual([
      'CREATE',
      ...Array(files.length - 1).fill('IMAGE_ADD'),
    ]);
    expect(
      created.map((e) => (typeof e.detail === 'string' ? JSON.parse(e.detail) : e.detail).source),
    ).toEqual(Array(files.length).fill('wrap'));

    // Independent readers: the Part-10 check, a full parse, the IOD and the payload round trips.
    const [pdfInst, photoInst, greyInst, fullInst, pngInst, alphaInst] = answer.body.instances;
    const pdfFile = await storedFile(pdfInst.sop_instance_uid, 'report.dcm');
    const photoFile = await storedFile(photoInst.sop_instance_uid, 'photo.dcm');
    const greyFile = await storedFile(greyInst.sop_instance_uid, 'grey.dcm');
    const fullFile = await storedFile(fullInst.sop_instance_uid, 'full.dcm');
    const pngFile = await storedFile(pngInst.sop_instance_uid, 'chart.dcm');
    const alphaFile = await storedFile(alphaInst.sop_instance_uid, 'alpha.dcm');
    for (const file of [pdfFile, photoFile, greyFile, fullFile, pngFile, alphaFile]) {
      expect(dcmftest(file)).toMatch(/^yes: /);
      const dump = dcmdump(file);
      expect(dump.errors).toEqual([]);
      expect(dumpValue(dump.stdout, '0010,0010')).toBe('Lee^Ann^Marie');
      expect(dumpValue(dump.stdout, '0010,0020')).toBe('MRN-WRAP-1');
      expect(dumpValue(dump.stdout, '0020,000d')).toBe(answer.body.study_uid);
      if (hasTool('dciodvfy')) {
        const iod = spawnSync('dciodvfy', [file], { encoding: 'utf8' });
        expect(`${iod.stdout}${iod.stderr}`, file).not.toMatch(/^Error/m);
      }
    }
    const pdfDump = dcmdump(pdfFile).stdout;
    expect(dumpValue(pdfDump, '0008,0060')).toBe('DOC');
    expect(dumpValue(pdfDump, '0042,0012')).toBe('application/pdf');

    const back = path.join(tmp.dir, `${dialect}-back.pdf`);
    expect(spawnSync('dcm2pdf', [pdfFile, back]).status).toBe(0);
    expect(new Uint8Array(fs.readFileSync(back))).toEqual(pdf);

    // The camera JPEG is kept as it is, in JPEG Baseline; the 4:4:4 one was decoded to RGB.
    expect(dcmdump(photoFile).stdout).toMatch(/TransferSyntaxUID\s*$|1\.2\.840\.10008\.1\.2\.4\.50/m);
    expect(dumpValue(dcmdump(photoFile).stdout, '0028,0004')).toBe('YBR_FULL_422');
    expect(dumpValue(dcmdump(greyFile).stdout, '0028,0004')).toBe('MONOCHROME2');
    expect(dumpValue(dcmdump(fullFile).stdout, '0028,0004')).toBe('RGB');
    for (const file of [photoFile, greyFile, fullFile, alphaFile]) {
      expect(spawnSync('dcmj2pnm', [file, `${file}.pnm`]).status, file).toBe(0);
    }

    // PNG pixels survive exactly: dcmtk's raw PPM equals the pattern the PNG was made from.
    const ppm = path.join(tmp.dir, `${dialect}-chart.ppm`);
    expect(spawnSync('dcmj2pnm', ['+op', '--write-raw-pnm', pngFile, ppm]).status).toBe(0);
    const raw = fs.readFileSync(ppm);
    expect(new Uint8Array(raw.subarray(raw.length - 37 * 23 * 3))).toEqual(rgbPattern(37, 23));
    // Transparent pixels are composited over white.
    const pgm = path.join(tmp.dir, `${dialect}-alpha.pgm`);
    expect(spawnSync('dcmj2pnm', ['--write-raw-pnm', alphaFile, pgm]).status).toBe(0);
    const grey = fs.readFileSync(pgm);
    expect([...grey.subarray(grey.length - 8)]).toEqual([255, 255, 255, 255, 0, 0, 0, 0]);
  });

  it('adds more files to the study it created, and only for the same patient', async () => {
    const first = await wrap(FORM, [{ name: 'a.pdf', bytes: minimalPdf('first') }]);
    const second = await wrap({ ...FORM, study_uid: first.body.study_uid }, [
      { name: 'b.png', bytes: rgbPng(4, 4) },
    ]);
    expect(second.status).toBe(202);
    expect(second.body.study_uuid).toBe(first.body.study_uuid);
    const study = await server.api.get('study/get', { sid, uuid: first.body.study_uuid });
    expect(study.body).toMatchObject({ image_count: 2, series_count: 2 });

    const before = await counts();
    const other = await wrap({ ...FORM, patientMRN: 'SOMEONE-ELSE', study_uid: first.body.study_uid }, [
      { name: 'c.png', bytes: rgbPng(4, 4) },
    ]);
    expect(other.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'study_uid' });
    const modality = await wrap({ ...FORM, study_uid: '1.2.840.113619.2.1' }, [
      { name: 'c.png', bytes: rgbPng(4, 4) },
    ]);
    expect(modality.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'study_uid' });
    expect(await counts()).toEqual(before);
  });

  it('refuses bad fields and bad files with a stable error type, storing nothing', async () => {
    const pdf = { name: 'r.pdf', bytes: minimalPdf('x') };
    const dicom = buildInstance(baseSpec());
    const truncatedPdf = minimalPdf('cut').slice(0, 60);
    const png = rgbPng(8, 8);
    const corruptPng = png.slice();
    corruptPng.fill(7, 40);
    const tomorrow = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const { firstName: _f, patientMRN: _m, ...withoutNameAndMrn } = FORM;
    const cases: [string, Record<string, string>, Upload[], number, string, string | null, unknown][] = [
      ['missing fields', withoutNameAndMrn, [pdf], 412, 'MISSING_FIELDS', 'firstName,patientMRN', null],
      ['blank fields', { ...FORM, lastName: '  ' }, [pdf], 412, 'MISSING_FIELDS', 'lastName', null],
      [
        'future birth',
        { ...FORM, patientDOB: tomorrow },
        [pdf],
        412,
        'INVALID_FIELD',
        'patientDOB',
        MESSAGES.formDobFuture,
      ],
      [
        'future study',
        { ...FORM, studyDate: tomorrow },
        [pdf],
        412,
        'INVALID_FIELD',
        'studyDate',
        MESSAGES.formStudyDateFuture,
      ],
      [
        'not a date',
        { ...FORM, patientDOB: '1984-02-30' },
        [pdf],
        412,
        'INVALID_FIELD',
        'patientDOB',
        MESSAGES.formDateFormat,
      ],
      [
        'study before birth',
        { ...FORM, studyDate: '1980-01-01' },
        [pdf],
        412,
        'INVALID_FIELD',
        'studyDate',
        MESSAGES.formStudyBeforeBirth,
      ],
      [
        'bad time',
        { ...FORM, studyTime: '7pm' },
        [pdf],
        412,
        'INVALID_FIELD',
        'studyTime',
        MESSAGES.formTimeFormat,
      ],
      [
        'bad sex',
        { ...FORM, patientGender: 'X' },
        [pdf],
        412,
        'INVALID_FIELD',
        'patientGender',
        MESSAGES.formInvalidValue,
      ],
      [
        'PN separator',
        { ...FORM, lastName: 'LEE^X' },
        [pdf],
        412,
        'INVALID_FIELD',
        'lastName',
        MESSAGES.formInvalidValue,
      ],
      ['no file', FORM, [], 412, 'MISSING_FIELDS', 'file', null],
      [
        'text file',
        FORM,
        [pdf, { name: 'notes.txt', bytes: new TextEncoder().encode('hello') }],
        412,
        'INVALID_FILE_TYPE',
        'notes.txt',
        null,
      ],
      ['DICOM file', FORM, [{ name: 'ct.dcm', bytes: dicom }], 412, 'INVALID_FILE_TYPE', 'ct.dcm', null],
      [
        'PDF named png',
        FORM,
        [{ name: 'x.png', bytes: truncatedPdf }],
        412,
        'INVALID_FILE_CONTENT',
        'x.png',
        null,
      ],
      [
        'corrupt PNG',
        FORM,
        [pdf, { name: 'bad.png', bytes: corruptPng }],
        412,
        'INVALID_FILE_CONTENT',
        'bad.png',
        null,
      ],
      [
        'empty file',
        FORM,
        [{ name: 'e.pdf', bytes: new Uint8Array(0) }],
        412,
        'INVALID_FILE_CONTENT',
        'e.pdf',
        null,
      ],
      [
        'oversized',
        FORM,
        [{ name: 'big.pdf', bytes: new Uint8Array(300 * 1024) }],
        413,
        'FILE_TOO_LARGE',
        null,
        null,
      ],
    ];
    const before = await counts();
    for (const [name, form, files, status, errorType, subtype, message] of cases) {
      const answer = await wrap(form, files);
      expect(answer.status, name).toBe(status);
      expect(answer.body.error_type, name).toBe(errorType);
      if (subtype) expect(answer.body.error_subtype, name).toBe(subtype);
      if (message) expect(Object.values(answer.body.error_data as object), name).toContain(message);
    }
    expect(await counts()).toEqual({ ...before, temps: 0 });
  });

  it('accepts a study dated today wherever the user is', async () => {
    const answer = await wrap({ ...FORM, studyDate: localTodayIso(), studyTime: '' }, [
      { name: 't.png', bytes: rgbPng(2, 2) },
    ]);
    expect(answer.status).toBe(202);
  });

  it('needs study_upload, membership, a session and the account setting', async () => {
    const files = [{ name: 'r.pdf', bytes: minimalPdf('x') }];
    const viewer = await server.api.login('viewer@demo.local');
    expect((await wrap(FORM, files, { sid: viewer })).body).toMatchObject({
      error_type: 'NOT_PERMITTED',
      error_subtype: 'study_upload',
    });
    const partner = await server.api.login('partner@demo.local');
    expect((await wrap(FORM, files, { sid: partner })).body.error_type).toBe('NOT_FOUND');
    expect((await wrap(FORM, files, { sid: 'forged' })).status).toBe(401);

    const group = (await server.api.groups(sid)).find((g) => g.namespace_id === emergency)!;
    const account = (group as unknown as { account_id: string }).account_id;
    await server.ctx.repos.settings.set(`account:${account}`, 'enable_dicom_wrapping', '0');
    try {
      const before = await counts();
      expect((await wrap(FORM, files)).body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'enable_dicom_wrapping',
      });
      const settings = await server.api.call('namespace/share_code', { namespace_id: emergency }, sid);
      expect(settings.body.settings.enable_dicom_wrapping).toBe('0');
      expect(await counts()).toEqual(before);
    } finally {
      await server.ctx.repos.settings.set(`account:${account}`, 'enable_dicom_wrapping', '1');
    }
  });
});
