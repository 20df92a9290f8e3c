import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInstance, newUid, SOP_CLASS_BY_MODALITY } from '../../src/dicom/index.js';
import { PduReader } from '../../src/dimse/pdu-reader.js';
import { SHARED_ABOVE, STREAM_ABOVE } from '../../src/dimse/dataset-sink.js';
import { storedBlobKeys } from '../support/blob-files.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { datasetOf, RawScu, split, storeCommand } from './raw-scu.js';

const CT = SOP_CLASS_BY_MODALITY.CT;

function instance(rows = 64, columns = 64) {
  const sopInstanceUid = newUid();
  const file = buildInstance({
    patientName: 'PDU^TEST',
    patientId: 'PDU-1',
    patientSex: 'O',
    patientBirthDate: '19700101',
    studyInstanceUid: newUid(),
    studyDate: '20260101',
    studyTime: '120000',
    studyDescription: 'PDU parsing',
    accessionNumber: 'PDU1',
    referringPhysician: '',
    institutionName: 'Test',
    seriesInstanceUid: newUid(),
    seriesNumber: 1,
    seriesDescription: 'pdu',
    modality: 'CT',
    bodyPart: 'HEAD',
    sopInstanceUid,
    instanceNumber: 1,
    rows,
    columns,
  });
  return { sopInstanceUid, dataset: datasetOf(file) };
}

describe('PduReader', () => {
  it('gives the same PDVs whether the bytes come whole or one at a time', () => {
    const payloads = [Buffer.from('command-part'), Buffer.from('dataset-one'), Buffer.from('dataset-two!')];
    const pdv = (control: number, data: Buffer) => {
      const head = Buffer.alloc(6);
      head.writeUInt32BE(data.length + 2, 0);
      head.writeUInt8(3, 4);
      head.writeUInt8(control, 5);
      return Buffer.concat([head, data]);
    };
    const body = Buffer.concat([pdv(0x03, payloads[0]!), pdv(0x00, payloads[1]!), pdv(0x02, payloads[2]!)]);
    const head = Buffer.from([0x04, 0, 0, 0, 0, 0]);
    head.writeUInt32BE(body.length, 2);
    const release = Buffer.from([0x05, 0, 0, 0, 0, 4, 0, 0, 0, 0]);
    const stream = Buffer.concat([head, body, release]);

    const run = (pieces: Buffer[]) => {
      const events: string[] = [];
      const reader = new PduReader(
        {
          controlPdu: (type, b) => events.push(`pdu ${type} ${b.length}`),
          pdvData: (id, command, slice) => events.push(`data ${id} ${command} ${slice.toString()}`),
          pdvEnd: (id, command, last) => events.push(`end ${id} ${command} ${last}`),
          protocolError: (reason) => events.push(`error ${reason}`),
        },
        1 << 20,
      );
      for (const piece of pieces) reader.push(piece);
      // Adjacent data events of one PDV join up: compare what each PDV carried.
      return events.reduce<string[]>((out, event) => {
        const last = out[out.length - 1];
        if (event.startsWith('data') && last?.startsWith('data')) {
          out[out.length - 1] = last + event.split(' ').slice(3).join(' ');
        } else out.push(event);
        return out;
      }, []);
    };
    const whole = run([stream]);
    expect(whole).toEqual([
      'data 3 true command-part',
      'end 3 true true',
      'data 3 false dataset-one',
      'end 3 false false',
      'data 3 false dataset-two!',
      'end 3 false true',
      'pdu 5 4',
    ]);
    expect(run([...stream].map((byte) => Buffer.from([byte])))).toEqual(whole);
  });

  it('reports a PDV item that overruns its PDU and a P-DATA-TF above the negotiated size', () => {
    const errors: string[] = [];
    const handler = {
      controlPdu: () => undefined,
      pdvData: () => undefined,
      pdvEnd: () => undefined,
      protocolError: (reason: string) => errors.push(reason),
    };
    new PduReader(handler, 1000).push(Buffer.from([0x04, 0, 0, 0, 0, 10, 0, 0, 0, 20, 1, 3, 0, 0, 0, 0]));
    new PduReader(handler, 1000).push(Buffer.from([0x04, 0, 0, 0, 0x10, 0, 0, 0]));
    expect(errors).toEqual([
      'PDV item length 20 does not fit its PDU',
      'P-DATA-TF of 4096 bytes exceeds the negotiated 1000',
    ]);
  });
});

describe.each(DIALECTS)('C-STORE PDU handling with a hand-driven SCU on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server?.stop());

  const files = (dir: string) =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
      : 0;
  const state = async () => ({
    instances: Number(
      (
        await server.ctx.db.kysely
          .selectFrom('instances')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    // Through the blob store, so an S3 run counts its objects (DATA_DIR/blobs stays empty there).
    blobs: (await storedBlobKeys(server)).length,
    temps: files(path.join(server.dataDir, 'tmp')),
  });
  const stored = (sopInstanceUid: string) =>
    server.ctx.db.kysely
      .selectFrom('instances')
      .select(['blob_key', 'transfer_syntax'])
      .where('sop_instance_uid', '=', sopInstanceUid)
      .executeTakeFirst();

  const associate = async () => {
    const scu = await RawScu.connect(server.dicomPort);
    expect(await scu.associate('DEMO_GATEWAY', 'INBOX', [CT])).toBe(0x02);
    return scu;
  };

  it('reassembles a command and a dataset sent in many fragments, several PDVs per PDU, cut at odd bytes', async () => {
    const { sopInstanceUid, dataset } = instance();
    const scu = await associate();
    const [c1, c2] = split(storeCommand(CT, sopInstanceUid), 2);
    const pieces = split(dataset, 7);
    await scu.sendPdus(
      [
        [
          { command: true, last: false, data: c1! },
          { command: true, last: true, data: c2! },
        ],
        [{ command: false, last: false, data: pieces[0]! }],
        pieces.slice(1, 4).map((data) => ({ command: false, last: false, data })),
        [
          ...pieces.slice(4, 6).map((data) => ({ command: false, last: false, data })),
          { command: false, last: true, data: pieces[6]! },
        ],
      ],
      997,
    );
    expect(await scu.storeStatus()).toBe(0x0000);
    expect(await scu.release()).toBe(0x06);

    const row = await stored(sopInstanceUid);
    expect(row?.transfer_syntax).toBe('1.2.840.10008.1.2.1');
    const file = await server.ctx.services.blobs.read(row!.blob_key);
    expect(file.subarray(128, 132).toString()).toBe('DICM');
    expect(datasetOf(file).equals(dataset)).toBe(true);
  });

  /** Sends a dataset as one C-STORE in PDUs of 60,000 bytes, the last one marked last; answers its status. */
  const sendStore = async (sopInstanceUid: string, dataset: Buffer) => {
    const scu = await associate();
    const pieces = split(dataset, Math.ceil(dataset.length / 60_000));
    await scu.sendPdus([
      [{ command: true, last: true, data: storeCommand(CT, sopInstanceUid) }],
      ...pieces.map((data, i) => [{ command: false, last: i === pieces.length - 1, data }]),
    ]);
    const status = await scu.storeStatus();
    expect(await scu.release()).toBe(0x06);
    return status;
  };

  it('stores a CT-size instance (written as soon as it is complete) byte for byte, and a resend adds nothing', async () => {
    const ct = instance(512, 512);
    expect(ct.dataset.length).toBeGreaterThan(SHARED_ABOVE);
    const before = await state();
    expect(await sendStore(ct.sopInstanceUid, ct.dataset)).toBe(0x0000);
    const row = await stored(ct.sopInstanceUid);
    const file = await server.ctx.services.blobs.read(row!.blob_key);
    expect(datasetOf(file).equals(ct.dataset)).toBe(true);
    expect(await state()).toEqual({ ...before, instances: before.instances + 1, blobs: before.blobs + 1 });

    expect(await sendStore(ct.sopInstanceUid, ct.dataset)).toBe(0x0000);
    expect(await state()).toEqual({ ...before, instances: before.instances + 1, blobs: before.blobs + 1 });
  });

  it('refuses a CT-size dataset whose header reads but whose pixel data is cut, and leaves no file', async () => {
    const ct = instance(512, 512);
    const before = await state();
    // The header (and the start of Pixel Data) arrive as usual; the dataset ends short of its length.
    const cut = ct.dataset.subarray(0, ct.dataset.length - 100_000);
    expect(await sendStore(ct.sopInstanceUid, cut)).toBe(0xc000);
    expect(await state()).toEqual(before);
    expect(await stored(ct.sopInstanceUid)).toBeUndefined();
  });

  it('answers two instances in one association, the second sent in one PDV', async () => {
    const a = instance();
    const b = instance();
    const scu = await associate();
    for (const [index, { sopInstanceUid, dataset }] of [a, b].entries()) {
      await scu.sendPdus([
        [
          { command: true, last: true, data: storeCommand(CT, sopInstanceUid, index + 1) },
          { command: false, last: true, data: dataset },
        ],
      ]);
      expect(await scu.storeStatus()).toBe(0x0000);
    }
    expect(await scu.release()).toBe(0x06);
    expect(await stored(a.sopInstanceUid)).toBeDefined();
    expect(await stored(b.sopInstanceUid)).toBeDefined();
  });

  it('leaves no file and no row when the association is aborted or dropped mid-instance', async () => {
    const before = await state();
    const small = instance();
    const large = instance(2100, 2100); // about 8.8 MB: past STREAM_ABOVE, so it streams to a temp file
    expect(large.dataset.length).toBeGreaterThan(STREAM_ABOVE);
    const ct = instance(512, 512); // about 0.5 MB: in shared memory, hashed on a writer thread
    expect(ct.dataset.length).toBeGreaterThan(SHARED_ABOVE);

    for (const [{ sopInstanceUid, dataset }, end] of [
      [small, 'abort'],
      [small, 'drop'],
      [ct, 'abort'],
      [ct, 'drop'],
      [large, 'abort'],
      [large, 'drop'],
    ] as const) {
      const scu = await associate();
      const keep = Math.floor(dataset.length * 0.95);
      await scu.sendPdus([
        [{ command: true, last: true, data: storeCommand(CT, sopInstanceUid) }],
        ...split(dataset.subarray(0, keep), Math.ceil(keep / 60_000)).map((data) => [
          { command: false, last: false, data },
        ]),
      ]);
      // Let the server take in what was sent (the large one is already streaming to disk).
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (end === 'abort') scu.abort();
      else scu.destroy();
      await scu.closed;
    }
    // The temp file of a streamed instance is removed asynchronously.
    for (let i = 0; i < 50 && (await state()).temps > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await state()).toEqual(before);
    expect(await stored(small.sopInstanceUid)).toBeUndefined();
    expect(await stored(large.sopInstanceUid)).toBeUndefined();
    expect(await stored(ct.sopInstanceUid)).toBeUndefined();
  });

  it('aborts an association that sends data on a context it was not given', async () => {
    const { sopInstanceUid, dataset } = instance();
    const before = await state();
    const scu = await associate();
    await scu.sendPdus([
      [
        { contextId: 9, command: true, last: true, data: storeCommand(CT, sopInstanceUid) },
        { contextId: 9, command: false, last: true, data: dataset },
      ],
    ]);
    await scu.closed;
    expect(await state()).toEqual(before);
  });
});
