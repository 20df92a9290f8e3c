import type dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundGuard, OutboundRefused } from '../../src/security/outbound-guard.js';

/** A resolver whose answers the test sets: a name may resolve to something else later (DNS rebinding). */
function fakeResolver(answers: Map<string, string>): typeof dns.lookup {
  return ((host: string, options: unknown, callback: (e: Error | null, a: dns.LookupAddress[]) => void) => {
    const address = answers.get(host);
    if (!address) return callback(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  }) as unknown as typeof dns.lookup;
}

describe('outbound guard (webhook targets)', () => {
  let sink: http.Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    sink = http.createServer((_req, res) => {
      hits++;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    port = (sink.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => sink.close(() => resolve())));

  it('refuses loopback, link-local, private, unique-local and mapped addresses unless allowed', () => {
    const guard = new OutboundGuard([]);
    for (const address of [
      '127.0.0.1',
      '169.254.169.254',
      '10.0.0.8',
      '172.20.1.1',
      '192.168.0.1',
      '100.64.0.1',
      '::1',
      'fd12::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ])
      expect(guard.refusal('h', address), address).toMatch(/loopback, link-local or private/);
    for (const address of ['93.184.216.34', '2606:2800:220:1::1'])
      expect(guard.refusal('h', address)).toBeNull();
    const allowing = new OutboundGuard(['10.0.0.0/8', 'pacs.local', '::1']);
    expect(allowing.refusal('x', '10.9.9.9')).toBeNull();
    expect(allowing.refusal('pacs.local', '192.168.1.1')).toBeNull();
    expect(allowing.refusal('x', '::1')).toBeNull();
    expect(allowing.refusal('x', '192.168.1.1')).not.toBeNull();
  });

  it('judges an IPv6 address that carries an IPv4 one by that IPv4 address', () => {
    const guard = new OutboundGuard([]);
    const refused = {
      'IPv4-mapped': ['::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:a9fe:a9fe', '0:0:0:0:0:ffff:10.0.0.8'],
      'IPv4-compatible': ['::7f00:1', '::127.0.0.1', '::a9fe:a9fe', '::c0a8:1'],
      'IPv4-translated': ['::ffff:0:7f00:1', '::ffff:0:10.1.2.3'],
      'NAT64 64:ff9b::/96': ['64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe'],
      'NAT64 local use': ['64:ff9b:1::5db8:d822', '64:ff9b:1:7f00:1::'],
      '6to4 2002::/16': ['2002:7f00:1::1', '2002:a9fe:a9fe::', '2002:c0a8:101:1::5'],
      'Teredo 2001::/32 (client inverted)': [
        '2001:0:4136:e378:8000:63bf:80ff:fffe',
        '2001:0:5db8:d822::f5ff:fff7',
      ],
      'site-local': ['fec0::1'],
    };
    for (const [form, addresses] of Object.entries(refused))
      for (const address of addresses)
        expect(guard.refusal('h', address), `${form} ${address}`).toMatch(/loopback, link-local or private/);
    // The same forms around a public IPv4 address go through (93.184.216.34 is 5db8:d822).
    for (const address of [
      '::ffff:93.184.216.34',
      '64:ff9b::5db8:d822',
      '2002:5db8:d822::1',
      '2001:0:5db8:d822::a247:27dd',
      '2606:2800:220:1::1',
    ])
      expect(guard.refusal('h', address), address).toBeNull();
    // The operator's allow-list reaches through the IPv6 form too.
    expect(new OutboundGuard(['10.0.0.0/8']).refusal('h', '64:ff9b::10.9.9.9')).toBeNull();
    expect(new OutboundGuard(['10.0.0.0/8']).refusal('h', '64:ff9b::7f00:1')).not.toBeNull();
  });

  it('checks the address a name resolves to at connection time (DNS rebinding)', async () => {
    const answers = new Map([['hooks.example', '93.184.216.34']]);
    const guard = new OutboundGuard([], fakeResolver(answers));
    expect(await guard.urlProblem(`http://hooks.example:${port}/`)).toBeNull();
    // Later the same name answers the loopback address where something listens.
    answers.set('hooks.example', '127.0.0.1');
    const error = await new Promise<Error>((resolve) => {
      const request = http.request(
        `http://hooks.example:${port}/`,
        { lookup: guard.lookup('hooks.example') },
        () => resolve(new Error('connected')),
      );
      request.on('error', resolve);
      request.end();
    });
    expect(error).toBeInstanceOf(OutboundRefused);
    expect(hits).toBe(0);
    expect(await guard.urlProblem(`http://hooks.example:${port}/`)).toMatch(/refused/);
  });

  it('refuses other schemes, credentials in the URL and names that do not resolve', async () => {
    const guard = new OutboundGuard([], fakeResolver(new Map()));
    expect(await guard.urlProblem('file:///etc/passwd')).toMatch(/http or https/);
    expect(await guard.urlProblem('https://user:pw@93.184.216.34/')).toMatch(/user name or password/);
    expect(await guard.urlProblem('https://nowhere.example/')).toMatch(/does not resolve/);
  });
});
