import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const run = promisify(execFile);

/**
 * The HL7 v2 MLLP listener, sent to with Debian's python3-hl7 (`mllp_send`): ORM^O01 creates,
 * updates and cancels an order that Search Order then finds; ORU^R01 stores a report result; every
 * message is answered AA, or AE / AR with the reason, and a refused one changes nothing.
 */
describe.each(DIALECTS)('HL7 MLLP listener on %s', (dialect) => {
  let server: TestServer;
  let gatekeeper: string;
  let intake: string;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-hl7-'));
    server = await startTestServer(dialect, { HL7_PORT: '0', HL7_MAX_MESSAGE_BYTES: '4096' });
    gatekeeper = await server.api.login('gatekeeper@demo.local');
    intake = (await server.api.groups(gatekeeper)).find((g) => g.name === 'PACS Intake')!.uuid;
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  let sent = 0;
  /** Sends one message with mllp_send; answers the ACK's segments. */
  const send = async (segments: string[]): Promise<string[][]> => {
    const file = path.join(dir, `m${++sent}.hl7`);
    // --loose: one segment a line in the file; mllp_send frames it and sends the segments CR-separated.
    fs.writeFileSync(file, segments.join('\n') + '\n');
    const { stdout } = await run(
      'mllp_send',
      ['--loose', '-p', String(server.hl7Port), '-f', file, '127.0.0.1'],
      {
        timeout: 30_000,
      },
    );
    return (
      stdout
        // MLLP framing bytes: start of block (VT) and end of block (FS).
        .replaceAll('\x0b', '')
        .replaceAll('\x1c', '')
        .replaceAll('\\S\\', '^')
        .split(/[\r\n]+/)
        .filter(Boolean)
        .map((s) => s.split('|'))
    );
  };
  const msa = (ack: string[][]) => ack.find((s) => s[0] === 'MSA')!;
  const msh = (type: string, id: string, facility = 'DEMO') =>
    `MSH|^~\\&|RIS|HOSP|INBOX|${facility}|20261127101500||${type}|${id}|P|2.3`;
  const orm = (
    id: string,
    control: string,
    accession: string,
    extra: { pid?: string; obr?: string } = {},
  ) => [
    msh('ORM^O01', id),
    extra.pid ?? 'PID|1||MRN-HL7^^^HOSP||TURING^ALAN^M||19120623|M',
    'PV1|1|O|||||||1234^WATSON^JOHN',
    `ORC|${control}|PL-${accession}|${accession}||SC`,
    extra.obr ??
      obr({
        1: '1',
        2: `PL-${accession}`,
        3: accession,
        4: 'CT-HEAD^CT HEAD WITHOUT CONTRAST',
        7: '20261127100000',
        16: '5678^HOUSE^GREGORY',
        18: accession,
        24: 'CT',
        36: '20261128',
      }),
  ];
  /** An OBR segment with these fields (by HL7 field number) and the rest empty. */
  const obr = (fields: Record<number, string>) => {
    const last = Math.max(...Object.keys(fields).map(Number));
    return ['OBR', ...Array.from({ length: last }, (_, i) => fields[i + 1] ?? '')].join('|');
  };
  const search = (accession: string) =>
    server.api.call(
      'order/search',
      { group_id: intake, 'filter.accession_number.equals': accession },
      gatekeeper,
    );

  it('creates an order from ORM^O01 (ACK AA) that Search Order finds', async () => {
    const ack = await send(orm('MSG-1', 'NW', 'HL7-ACC-1'));
    expect(ack[0]![0]).toBe('MSH');
    expect(ack[0]![8]).toBe('ACK^O01');
    expect(msa(ack).slice(0, 3)).toEqual(['MSA', 'AA', 'MSG-1']);
    const found = await search('HL7-ACC-1');
    expect(found.body.orders).toEqual([
      expect.objectContaining({
        accession_number: 'HL7-ACC-1',
        patient_name: 'TURING^ALAN^M',
        patientid: 'MRN-HL7',
        patient_birth_date: '19120623',
        patient_sex: 'M',
        requested_procedure: 'CT HEAD WITHOUT CONTRAST',
        modality: 'CT',
        scheduled_date: '20261128',
        referring_physician: 'HOUSE^GREGORY',
        status: 'SCHEDULED',
        source: 'HL7',
      }),
    ]);
  });

  it('updates (XO) and cancels (CA) the order it names, each audited', async () => {
    const update = await send(
      orm('MSG-2', 'XO', 'HL7-ACC-1', { pid: 'PID|1||MRN-HL7^^^HOSP||TURING^ALAN||19120623|M' }),
    );
    expect(msa(update)[1]).toBe('AA');
    expect((await search('HL7-ACC-1')).body.orders[0]).toMatchObject({
      patient_name: 'TURING^ALAN',
      status: 'SCHEDULED',
    });
    const cancel = await send(orm('MSG-3', 'CA', 'HL7-ACC-1'));
    expect(msa(cancel)[1]).toBe('AA');
    const order = (await search('HL7-ACC-1')).body.orders[0];
    expect(order.status).toBe('CANCELLED');
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('object_id', '=', order.uuid)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['ORDER_ADD', 'ORDER_UPDATE', 'ORDER_CANCEL']);
  });

  it('stores an ORU^R01 result for its accession number, a final replacing the preliminary', async () => {
    const oru = (id: string, status: string, text: string) => [
      msh('ORU^R01', id),
      'PID|1||MRN-HL7^^^HOSP||TURING^ALAN||19120623|M',
      obr({
        1: '1',
        2: 'PL-HL7-ACC-1',
        3: 'HL7-ACC-1',
        4: 'CT-HEAD^CT HEAD WITHOUT CONTRAST',
        7: '20261128110000',
        18: 'HL7-ACC-1',
        22: '20261128120000',
        25: status,
        32: 'R1&CURIE&MARIE',
      }),
      `OBX|1|TX|REPORT^Report||${text}||||||${status}`,
    ];
    expect(msa(await send(oru('MSG-4', 'P', 'No acute findings.~Preliminary read.')))[1]).toBe('AA');
    expect(msa(await send(oru('MSG-5', 'F', 'No acute intracranial findings.')))[1]).toBe('AA');
    const results = await server.ctx.db.kysely
      .selectFrom('hl7_results')
      .select(['accession_number', 'status', 'author', 'title', 'text', 'observed'])
      .execute();
    expect(results).toEqual([
      {
        accession_number: 'HL7-ACC-1',
        status: 'Final',
        author: 'MARIE CURIE',
        title: 'CT HEAD WITHOUT CONTRAST',
        text: 'No acute intracranial findings.',
        observed: expect.anything(),
      },
    ]);
    expect(Number(results[0]!.observed)).toBe(Date.UTC(2026, 10, 28, 12, 0, 0));
  });

  it('answers AE with the reason and changes nothing for a message it cannot apply', async () => {
    const count = async () =>
      Number(
        (await server.ctx.db.kysely
          .selectFrom('orders')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirst())!.n,
      );
    const before = await count();
    const refusals: [string[], RegExp][] = [
      [[msh('ADT^A01', 'BAD-1'), 'PID|1||X'], /ADT\^A01 is not accepted/],
      [
        orm('BAD-2', 'NW', 'HL7-BAD', { obr: 'OBR|1' }).map((s) => s.replace(/^ORC\|.*/, 'ORC|NW')),
        /accession number/,
      ],
      [orm('BAD-3', 'NW', 'HL7-BAD', { pid: 'PID|1||MRN||' }), /PID-5/],
      [orm('BAD-4', 'NW', 'HL7-BAD', { pid: 'PID|1||MRN||DOE^JANE||1980-01-01|F' }), /PID-7/],
      [orm('BAD-5', 'CA', 'HL7-NO-SUCH'), /no order with accession number HL7-NO-SUCH/],
      [orm('BAD-6', 'ZZ', 'HL7-BAD'), /ORC-1 order control ZZ/],
      [[msh('ORU^R01', 'BAD-8'), obr({ 1: '1', 4: 'X^Y', 18: 'ACC-R' })], /no report text/],
    ];
    for (const [message, why] of refusals) {
      const answer = msa(await send(message));
      expect(answer[1], message.join(' / ')).toBe('AE');
      expect(answer[2]).toBe(message[0]!.split('|')[9]);
      expect(answer[3]).toMatch(why);
    }
    expect(await count()).toBe(before);
  });

  it('answers AR to what is not HL7 and to a message over the size limit, closing that connection', async () => {
    const exchange = (bytes: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(server.hl7Port!, '127.0.0.1');
        let answer = '';
        socket.on('data', (d) => (answer += d.toString('utf8')));
        socket.on('end', () => resolve(answer));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
        socket.write(bytes);
        setTimeout(() => socket.end(), 3000);
      });
    const framed = (text: string) =>
      Buffer.concat([Buffer.from([0x0b]), Buffer.from(text), Buffer.from([0x1c, 0x0d])]);
    const junk = await exchange(framed('hello'));
    expect(junk).toMatch(/MSA\|AR\|\|the message does not start with MSH/);
    const huge = await exchange(framed(orm('BIG', 'NW', 'HL7-BIG').join('\r') + 'X'.repeat(5000)));
    expect(huge).toMatch(/MSA\|AR\|\|message larger than 4096 bytes/);
    expect((await search('HL7-BIG')).body.orders).toEqual([]);
  });
});
