import { describe, expect, it } from 'vitest';
import { clientAddress, isLoopback, TrustedProxies } from './client-address.js';

describe('clientAddress', () => {
  const haproxy = new TrustedProxies('10.0.0.5, 10.1.0.0/16');
  const of = (socket: string, header: string | undefined, trusted = haproxy) =>
    clientAddress(socket, header, trusted);

  it('takes the right-most address that is not a trusted proxy', () => {
    expect(of('10.0.0.5', '192.0.2.7')).toBe('192.0.2.7');
    // A client's own X-Forwarded-For is left of what haproxy appended: never read.
    expect(of('10.0.0.5', '1.2.3.4, 192.0.2.7')).toBe('192.0.2.7');
    expect(of('10.0.0.5', '1.2.3.4, 192.0.2.7, 10.1.4.4')).toBe('192.0.2.7');
    expect(of('10.0.0.5', '2001:db8::1')).toBe('2001:db8::1');
  });

  it('gives the socket address for a connection that is not from a trusted proxy', () => {
    expect(of('192.0.2.9', '1.2.3.4')).toBe('192.0.2.9');
    expect(of('10.0.0.5', '1.2.3.4', new TrustedProxies(undefined))).toBe('10.0.0.5');
  });

  it('gives the socket address when the entry it would believe is not an IP address', () => {
    expect(of('10.0.0.5', '=HYPERLINK("http://x.example","click")')).toBe('10.0.0.5');
    expect(of('10.0.0.5', '192.0.2.7, =HYPERLINK("x")')).toBe('10.0.0.5');
    expect(of('10.0.0.5', '192.0.2.7:4444')).toBe('10.0.0.5');
    expect(of('10.0.0.5', 'unknown')).toBe('10.0.0.5');
    expect(of('10.0.0.5', '')).toBe('10.0.0.5');
    expect(of('10.0.0.5', Array.from({ length: 40 }, () => '10.1.0.1').join(','))).toBe('10.0.0.5');
  });

  it('stops at the farthest trusted proxy when every hop is one', () => {
    expect(of('10.0.0.5', '10.1.2.3')).toBe('10.1.2.3');
  });
});

describe('TrustedProxies', () => {
  it('reads addresses, CIDRs and named ranges', () => {
    const trusted = new TrustedProxies('loopback, 192.168.1.0/24, 2001:db8::/32');
    expect(
      ['127.0.0.1', '127.9.9.9', '::1', '192.168.1.200', '2001:db8::7'].map((a) => trusted.has(a)),
    ).toEqual([true, true, true, true, true]);
    expect(['192.168.2.1', '10.0.0.1', '=1+1', ''].some((a) => trusted.has(a))).toBe(false);
  });

  it('refuses entries that are not addresses, so a typo trusts nobody rather than everybody', () => {
    for (const bad of ['10.0.0.0/', '10.0.0.0/33', 'proxy.local', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x'])
      expect(() => new TrustedProxies(bad)).toThrow(/TRUST_PROXY/);
  });
});

describe('isLoopback', () => {
  it('knows this machine in IPv4, IPv6 and IPv4-mapped IPv6, and nothing else', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every(isLoopback)).toBe(true);
    expect(['10.0.0.1', '::2', '::ffff:10.0.0.1', 'localhost', ''].some(isLoopback)).toBe(false);
  });
});
