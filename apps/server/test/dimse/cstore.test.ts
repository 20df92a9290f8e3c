import { spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dimse from 'dcmjs-dimse';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { ingestState } from '../support/ingest-state.js';
import { STORE_STAGE_CHANNEL } from '../../src/metrics/store-stages.js';
import type { StoreStageMark } from '../../src/metrics/store-stages.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

interface Run {
  code: number;
  output: string;
}

/** Runs a dcmtk tool without blocking the event loop (the server under test lives in this process). */
function run(tool: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, TCP_NODELAY: '1' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

function writeSeries(dir: string, seed: number, studies = 1) {
  const specs = generateStudySpecs(studies, seed, { now: new Date('2026-05-01T00:00:00Z') });
  fs.mkdirSync(dir, { recursive: true });
  const perStudy = specs.map((spec) => ({ spec, files: writeStudyFiles(spec) }));
  const files = perStudy.flatMap((s) => s.files);
  for (const file of files) fs.writeFileSync(path.join(dir, `${file.sopInstanceUid}.dcm`), file.bytes);
  return { specs, perStudy, files };
}

/** C-STORE of raw dataset bytes (whatever they hold) with dcmjs-dimse as the SCU; answers the status. */
function storeRawDataset(
  port: number,
  sopClassUid: string,
  sopInstanceUid: string,
  bytes: Buffer,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const dataset = new dimse.Dataset(
      { SOPClassUID: sopClassUid, SOPInstanceUID: sopInstanceUid },
      EXPLICIT_LE,
    );
    dataset.getDenaturalizedDataset = () => bytes;
    const request = new dimse.requests.CStoreRequest(dataset);
    let status = -1;
    request.on('response', (response: { getStatus(): number }) => (status = response.getStatus()));
    const client = new dimse.Client();
    client.addRequest(request);
    client.on('networkError', reject);
    client.on('closed', () => resolve(status));
    client.send('127.0.0.1', port, 'DEMO_GATEWAY', 'INBOX');
  });
}

describe.each(DIALECTS)('DICOM listener (C-ECHO, C-STORE) with dcmtk on %s', (dialect) => {
  let server: TestServer;
  let tmp: string;
  let sid: string;
  let emergency: string;
  let peer: (aet?: string) => string[];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-dimse-'));
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
    peer = (aet = 'DEMO_GATEWAY') => ['-aet', aet, '-aec', 'INBOX', '127.0.0.1', String(server.dicomPort)];
  });
  afterAll(async () => {
    await server?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const counts = () => ingestState(server);

  const listed = async (studyUid: string) => {
    const { body } = await server.api.call(
      'study/list',
      { 'filter.study_uid.equals': studyUid, 'filter.phi_namespace.equals': emergency },
      sid,
    );
    return body.studies as { study_uid: string; image_count: number; phi_namespace: string }[];
  };

  it('answers C-ECHO from a registered sender', async () => {
    const echo = await run('echoscu', peer());
    expect(echo.code, echo.output).toBe(0);
  });

  it('stores a storescu send of generated series into Emergency, once, answering success', async () => {
    const dir = path.join(tmp, 'generated');
    const { perStudy, files } = writeSeries(dir, 4711, 2);
    // The marks bench:cstore --stages times: one association, so each instance's come in order.
    const stages: string[] = [];
    const onMark = (mark: unknown) => void stages.push((mark as StoreStageMark).stage);
    subscribe(STORE_STAGE_CHANNEL, onMark);
    const sent = await run('storescu', [...peer(), '+sd', dir]).finally(() =>
      unsubscribe(STORE_STAGE_CHANNEL, onMark),
    );
    expect(sent.code, sent.output).toBe(0);
    const order = ['command', 'dataset', 'parsed', 'statements', 'durable', 'committed', 'answered'];
    expect(stages).toEqual(files.flatMap(() => order));
    for (const { spec, files: studyFiles } of perStudy) {
      const rows = await listed(spec.studyInstanceUid);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ phi_namespace: emergency, image_count: studyFiles.length });
      const study = await server.ctx.db.kysely
        .selectFrom('studies')
        .select(['source_ae_title', 'destination_ae_title'])
        .where('study_uid', '=', spec.studyInstanceUid)
        .executeTakeFirstOrThrow();
      expect(study).toEqual({ source_ae_title: 'DEMO_GATEWAY', destination_ae_title: 'INBOX' });
    }
    // A stored file is the received dataset behind a proper Part-10 header.
    const stored = await server.ctx.db.kysely
      .selectFrom('instances')
      .select(['blob_key', 'sop_instance_uid'])
      .where('sop_instance_uid', '=', files[0]!.sopInstanceUid)
      .executeTakeFirstOrThrow();
    // Read through the blob store, so the check holds on the file and the S3 store alike.
    const copy = path.join(server.dataDir, 'stored-copy.dcm');
    fs.writeFileSync(copy, await server.ctx.services.blobs.read(stored.blob_key));
    const dump = await run('dcmdump', ['-q', copy]);
    expect(dump.code, dump.output).toBe(0);
    expect(dump.output).toContain(files[0]!.sopInstanceUid);
    expect(dump.output).toMatch(/\(0002,0016\) AE \[DEMO_GATEWAY\]/);

    // Sending the same instances again stores nothing new.
    const before = await counts();
    const again = await run('storescu', [...peer(), '+sd', dir]);
    expect(again.code, again.output).toBe(0);
    expect(await counts()).toEqual(before);
  });

  it('stores the pydicom test files dcmtk can send, in their own transfer syntaxes', async () => {
    const wanted: [string, string][] = [
      ['CT_small.dcm', '1.2.840.10008.1.2.1'],
      ['MR_small.dcm', '1.2.840.10008.1.2.1'],
      ['image_dfl.dcm', '1.2.840.10008.1.2.1.99'],
      ['SC_rgb_jpeg_dcmtk.dcm', '1.2.840.10008.1.2.4.50'],
      ['JPEG-lossy.dcm', '1.2.840.10008.1.2.4.51'],
      ['SC_rgb_jpeg_gdcm.dcm', '1.2.840.10008.1.2.4.70'],
      ['MR_small_jpeg_ls_lossless.dcm', '1.2.840.10008.1.2.4.80'],
      ['GDCMJ2K_TextGBR.dcm', '1.2.840.10008.1.2.4.90'],
      ['693_J2KI.dcm', '1.2.840.10008.1.2.4.91'],
      ['SC_rgb_rle.dcm', '1.2.840.10008.1.2.5'],
      ['liver_1frame.dcm', '1.2.840.10008.1.2.1'],
      ['test-SR.dcm', '1.2.840.10008.1.2.1'],
      ['waveform_ecg.dcm', '1.2.840.10008.1.2.1'],
    ];
    // Several of these files are one instance in different encodings (same SOP Instance UID); copies
    // with a fresh UID let each encoding arrive as its own instance.
    const dir = path.join(tmp, 'pydicom');
    fs.mkdirSync(dir);
    const copies = wanted.map(([file]) => path.join(dir, file));
    for (const [index, [file]] of wanted.entries()) fs.copyFileSync(path.join(PYDICOM, file), copies[index]!);
    const fresh = await run('dcmodify', ['-nb', '-gin', ...copies]);
    expect(fresh.code, fresh.output).toBe(0);
    // dcmsend proposes each file's own transfer syntax (storescu would offer uncompressed ones only).
    const sent = await run('dcmsend', [
      '-aet',
      'DEMO_GATEWAY',
      '-aec',
      'INBOX',
      '-dn',
      '127.0.0.1',
      String(server.dicomPort),
      ...copies,
    ]);
    expect(sent.code, sent.output).toBe(0);
    for (const [index, [file, syntax]] of wanted.entries()) {
      const dump = await run('dcmdump', ['-q', '+P', '0008,0018', '+P', '0020,000d', copies[index]!]);
      const [sop, study] = [...dump.output.matchAll(/UI \[([0-9.]+)\]/g)].map((m) => m[1]!);
      const row = await server.ctx.db.kysely
        .selectFrom('instances')
        .select('transfer_syntax')
        .where('sop_instance_uid', '=', sop!)
        .executeTakeFirst();
      expect(row?.transfer_syntax, file).toBe(syntax);
      expect((await listed(study!)).length, file).toBe(1);
    }
  });

  it('refuses an unknown calling AE, a sender from another host and a wrong called AE, storing nothing', async () => {
    const dir = path.join(tmp, 'refused');
    writeSeries(dir, 99, 1);
    const before = await counts();
    const unknown = await run('storescu', [...peer('STRANGER'), '+sd', dir]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toMatch(/Calling AE Title Not Recognized/i);
    const called = await run('storescu', [
      '-aet',
      'DEMO_GATEWAY',
      '-aec',
      'NOT_INBOX',
      '127.0.0.1',
      String(server.dicomPort),
      '+sd',
      dir,
    ]);
    expect(called.code).not.toBe(0);
    expect(called.output).toMatch(/Called AE Title Not Recognized/i);

    // Registered, but for another host.
    const demo = await server.ctx.db.kysely.selectFrom('dicom_nodes').selectAll().executeTakeFirstOrThrow();
    await server.ctx.repos.dicomNodes.insert({
      ...demo,
      uuid: crypto.randomUUID(),
      ae_title: 'FAR_AWAY',
      host: '10.9.8.7',
    });
    const far = await run('storescu', [...peer('FAR_AWAY'), '+sd', dir]);
    expect(far.code).not.toBe(0);
    expect(await counts()).toEqual(before);
  });

  it('answers a failure status for a file that fails to parse or validate, and stores nothing of it', async () => {
    const dir = path.join(tmp, 'bad');
    const { files } = writeSeries(dir, 2024, 1);
    const before = await counts();

    // No Study Instance UID: dcmtk sends it, the ingest pipeline refuses it.
    const noStudy = path.join(dir, `${files[0]!.sopInstanceUid}.dcm`);
    expect((await run('dcmodify', ['-nb', '-ea', '(0020,000d)', noStudy])).code).toBe(0);
    const sent = await run('storescu', ['-v', '-nh', ...peer(), noStudy]);
    expect(sent.output).toMatch(/Received Store Response \(Error: CannotUnderstand\)/);

    // A dataset cut inside its Pixel Data (dcmtk will not send such a file, so dcmjs-dimse does).
    const cut = files[1]!;
    const full = Buffer.from(cut.bytes);
    const datasetStart = 132 + 12 + full.readUInt32LE(140);
    const truncated = full.subarray(datasetStart, full.length - 2000);
    const sopClass = /1\.2\.840\.10008\.5\.1\.4\.1\.1\.[0-9.]+/.exec(full.toString('latin1'))![0];
    const status = await storeRawDataset(server.dicomPort, sopClass, cut.sopInstanceUid, truncated);
    expect(status).toBe(0xc000);

    const after = await counts();
    expect(after).toEqual(before);
    expect(after.temps).toBe(0);
  });
});
