import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * Who may write over HL7 (decision 0056), and that no sender can crowd out another: a message is
 * heard only from a registered (address, MSH-4) of an account and only for that account, one
 * address holds at most HL7_MAX_CONNECTIONS_PER_ADDRESS connections, and a message must be whole
 * within HL7_MESSAGE_DEADLINE_MS of its first byte however slowly it trickles. 127.0.0.1 and
 * 127.0.0.2 are two addresses of the loopback network on Linux; Demo Hospital's RIS is registered
 * at 127.0.0.1 as facility HOSP (demo world).
 */
describe.each(DIALECTS)('HL7 senders and connection limits on %s', (dialect) => {
  let server: TestServer;
  let partnerAdmin: string;
  let demoAdmin: string;
  let demoAccount: string;
  let partnerAccount: string;

  const DEADLINE_MS = 1500;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      HL7_PORT: '0',
      // 20 trickling connections would take every slot without the per-address cap.
      HL7_MAX_CONNECTIONS: '20',
      HL7_MAX_CONNECTIONS_PER_ADDRESS: '4',
      HL7_MESSAGE_DEADLINE_MS: String(DEADLINE_MS),
    });
    partnerAdmin = await server.api.login('partner@demo.local');
    demoAdmin = await server.api.login('admin@demo.local');
    const accounts = await server.ctx.db.kysely.selectFrom('accounts').select(['uuid', 'vanity']).execute();
    demoAccount = accounts.find((a) => a.vanity === 'demo')!.uuid;
    partnerAccount = accounts.find((a) => a.vanity === 'partner')!.uuid;
  });
  afterAll(() => server?.stop());

  const framed = (text: string) =>
    Buffer.concat([Buffer.from([0x0b]), Buffer.from(text), Buffer.from([0x1c, 0x0d])]);

  /** Sends one framed message from `from` and answers the ACK's text ('' if the connection closed). */
  const exchange = (segments: string[], from: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect({ port: server.hl7Port!, host: '127.0.0.1', localAddress: from });
      let answer = '';
      const timer = setTimeout(() => socket.destroy(), 10_000);
      socket.on('data', (d) => {
        answer += d.toString('utf8');
        if (answer.includes('\x1c\r')) socket.end();
      });
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(answer);
      });
      socket.on('error', reject);
      socket.write(framed(segments.join('\r')));
    });
  const ackCode = (ack: string) => /MSA\|([A-Z]{2})\|/.exec(ack)?.[1];

  const orm = (
    id: string,
    accession: string,
    msh: { facility?: string; receiving?: string; app?: string },
  ) => [
    `MSH|^~\\&|${msh.app ?? 'RIS'}|${msh.facility ?? 'HOSP'}|INBOX|${msh.receiving ?? 'DEMO'}|20261127101500||ORM^O01|${id}|P|2.3`,
    'PID|1||MRN-SND^^^HOSP||LOVELACE^ADA||18151210|F',
    `ORC|NW|PL-${accession}|${accession}||SC`,
    `OBR|1|PL-${accession}|${accession}|CT-HEAD^CT HEAD|||20261127100000|||||||||||${accession}||||||CT`,
  ];
  const ordersOf = (accession: string) =>
    server.ctx.db.kysely
      .selectFrom('orders')
      .select(['account_id'])
      .where('accession_number', '=', accession)
      .execute();
  const orderCount = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('orders')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('rejects (AR) a message from an unregistered address or facility and stores nothing', async () => {
    const before = await orderCount();
    const unknownAddress = await exchange(orm('U-1', 'SND-U1', {}), '127.0.0.2');
    expect(ackCode(unknownAddress)).toBe('AR');
    expect(unknownAddress).toMatch(/sender HOSP at 127\.0\.0\.2 is not registered/);
    const unknownFacility = await exchange(orm('U-2', 'SND-U2', { facility: 'ELSEWHERE' }), '127.0.0.1');
    expect(ackCode(unknownFacility)).toBe('AR');
    expect(await orderCount()).toBe(before);
    expect(await ordersOf('SND-U1')).toEqual([]);

    // The registered sender, in any case of its facility, is heard.
    expect(ackCode(await exchange(orm('U-3', 'SND-U3', { facility: 'hosp' }), '127.0.0.1'))).toBe('AA');
    expect(await ordersOf('SND-U3')).toEqual([{ account_id: demoAccount }]);
  });

  it('a registered sender writes only to its own account: another one in MSH-6 is rejected', async () => {
    const added = await server.api.call(
      'hl7/sender/add',
      { account_id: partnerAccount, host: '127.0.0.2', facility: 'Partner-RIS', name: 'Partner RIS' },
      partnerAdmin,
    );
    expect(added.body).toMatchObject({
      status: 'OK',
      account_id: partnerAccount,
      host: '127.0.0.2',
      facility: 'Partner-RIS',
      application: null,
    });

    const before = await orderCount();
    for (const receiving of ['DEMO', demoAccount, 'NOWHERE']) {
      const ack = await exchange(orm('P-1', 'SND-P1', { facility: 'PARTNER-RIS', receiving }), '127.0.0.2');
      expect(ackCode(ack), receiving).toBe('AR');
      expect(ack).toMatch(/is not this sender's account/);
    }
    // Demo Hospital's sender naming Partner Clinic: rejected the same way.
    expect(ackCode(await exchange(orm('D-1', 'SND-P1', { receiving: 'partner' }), '127.0.0.1'))).toBe('AR');
    expect(await orderCount()).toBe(before);

    // Its own account, by vanity or left empty, is where its orders go.
    const own = await exchange(
      orm('P-2', 'SND-P2', { facility: 'partner-ris', receiving: 'PARTNER' }),
      '127.0.0.2',
    );
    expect(ackCode(own)).toBe('AA');
    const empty = await exchange(
      orm('P-3', 'SND-P3', { facility: 'partner-ris', receiving: '' }),
      '127.0.0.2',
    );
    expect(ackCode(empty)).toBe('AA');
    expect([...(await ordersOf('SND-P2')), ...(await ordersOf('SND-P3'))]).toEqual([
      { account_id: partnerAccount },
      { account_id: partnerAccount },
    ]);
  });

  it('hl7/sender/*: each account administers its own senders; a taken identity or bad field changes nothing', async () => {
    const listed = await server.api.call('hl7/sender/list', { account_id: partnerAccount }, partnerAdmin);
    expect(listed.body.senders.map((s: { facility: string }) => s.facility)).toEqual(['Partner-RIS']);
    const partnerSender = listed.body.senders[0].uuid as string;

    // Demo Hospital's admin cannot see, change or remove Partner Clinic's sender, nor take its identity.
    expect(
      (await server.api.call('hl7/sender/list', { account_id: partnerAccount }, demoAdmin)).body.error_type,
    ).toBe('NOT_FOUND');
    for (const [route, params] of [
      ['hl7/sender/set', { uuid: partnerSender, host: '127.0.0.1' }],
      ['hl7/sender/delete', { uuid: partnerSender }],
    ] as const) {
      expect((await server.api.call(route, params, demoAdmin)).body.error_type, route).toBe('NOT_FOUND');
    }
    const taken = await server.api.call(
      'hl7/sender/add',
      { account_id: demoAccount, host: '127.0.0.2', facility: ' partner-ris ' },
      demoAdmin,
    );
    expect(taken.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'facility' });
    const bad: [Record<string, string>, string][] = [
      [{ host: 'ris.example.org', facility: 'X' }, 'host'],
      [{ host: '127.0.0.3', facility: '' }, 'facility'],
      [{ host: '127.0.0.3', facility: 'A|B' }, 'facility'],
      [{ host: '127.0.0.3', facility: 'X'.repeat(65) }, 'facility'],
      [{ host: '127.0.0.3', facility: 'OK', application: 'R^S' }, 'application'],
    ];
    for (const [fields, field] of bad) {
      const { body } = await server.api.call(
        'hl7/sender/add',
        { account_id: demoAccount, ...fields },
        demoAdmin,
      );
      expect(body, JSON.stringify(fields)).toMatchObject({
        error_type: 'INVALID_FIELD',
        error_subtype: field,
      });
    }
    const demoList = await server.api.call('hl7/sender/list', { account_id: demoAccount }, demoAdmin);
    expect(demoList.body.senders.map((s: { facility: string }) => s.facility)).toEqual(['HOSP']);

    // Its own admin narrows it to one application, then removes it: its messages are rejected again.
    const set = await server.api.call(
      'hl7/sender/set',
      { uuid: partnerSender, application: 'ris' },
      partnerAdmin,
    );
    expect(set.body).toMatchObject({ status: 'OK', application: 'ris' });
    const otherApp = await exchange(
      orm('P-4', 'SND-P4', { facility: 'PARTNER-RIS', receiving: '', app: 'LAB' }),
      '127.0.0.2',
    );
    expect(ackCode(otherApp)).toBe('AR');
    expect(
      (await server.api.call('hl7/sender/delete', { uuid: partnerSender }, partnerAdmin)).body.status,
    ).toBe('OK');
    const gone = await exchange(
      orm('P-5', 'SND-P5', { facility: 'PARTNER-RIS', receiving: '' }),
      '127.0.0.2',
    );
    expect(ackCode(gone)).toBe('AR');
    expect([...(await ordersOf('SND-P4')), ...(await ordersOf('SND-P5'))]).toEqual([]);
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('object_id', '=', partnerSender)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['CREATE', 'EDIT', 'DELETE']);
  });

  it('trickling connections from one address do not block another, and a trickled message closes at its deadline', async () => {
    interface Trickler {
      socket: net.Socket;
      opened: number;
      closedAfter?: number;
    }
    const tricklers: Trickler[] = [];
    const timers: NodeJS.Timeout[] = [];
    const closed = (t: Trickler) =>
      new Promise<void>((resolve) => {
        if (t.socket.destroyed) resolve();
        else t.socket.once('close', () => resolve());
      });
    try {
      for (let i = 0; i < 20; i++) {
        const socket = net.connect({ port: server.hl7Port!, host: '127.0.0.1', localAddress: '127.0.0.2' });
        const t: Trickler = { socket, opened: Date.now() };
        socket.on('error', () => {});
        socket.on('close', () => (t.closedAfter = Date.now() - t.opened));
        socket.on('connect', () => {
          // The start of a message, then one byte every 200 ms: never idle, never complete.
          socket.write(Buffer.from('\x0bMSH|'));
          timers.push(setInterval(() => !socket.destroyed && socket.write('X'), 200));
        });
        tricklers.push(t);
      }
      await new Promise((r) => setTimeout(r, 500));
      // One address holds its own few slots; the rest were closed as they arrived.
      const open = tricklers.filter((t) => t.closedAfter === undefined);
      expect(open.length).toBe(4);

      // Another address is heard meanwhile.
      const started = Date.now();
      const ack = await exchange(orm('T-1', 'SND-T1', {}), '127.0.0.1');
      expect(ackCode(ack)).toBe('AA');
      expect(Date.now() - started).toBeLessThan(DEADLINE_MS);

      // Bytes every 200 ms do not extend a message: it is closed at the deadline after its first.
      await Promise.all(open.map(closed));
      for (const t of open) {
        expect(t.closedAfter!).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
        expect(t.closedAfter!).toBeLessThan(DEADLINE_MS + 2000);
      }
      // Its slots are free again: the address is answered (AR, nothing registered there now).
      expect(ackCode(await exchange(orm('T-2', 'SND-T2', {}), '127.0.0.2'))).toBe('AR');
    } finally {
      for (const timer of timers) clearInterval(timer);
      for (const t of tricklers) t.socket.destroy();
    }
  });
});
