import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { embeddedIPv4 } from './embedded-ipv4.js';

/**
 * Where outbound requests an account admin points us at (webhooks) may go. Loopback, link-local
 * (the cloud metadata service at 169.254.169.254 among them), private, unique-local, carrier-grade
 * NAT, multicast and unspecified addresses are refused, so a webhook cannot probe the hospital's
 * network or this host, unless the operator's allow-list (WEBHOOK_ALLOWED_HOSTS: host names,
 * addresses or CIDR ranges) names them. The check runs on the resolved address at connection
 * time too (`lookup`), so a name that resolved to a public address when saved and to a private
 * one later (DNS rebinding) is still refused.
 */
const REFUSED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // NAT64 for local use (RFC 8215): the IPv4 inside sits where the operator chose
  ['fc00::', 7],
  ['fec0::', 10], // site-local (deprecated, still private)
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  REFUSED.addSubnet(prefix, bits, 'ipv6');
}

export class OutboundGuard {
  private readonly allowedNames = new Set<string>();
  private readonly allowedAddresses = new net.BlockList();

  constructor(
    allowList: readonly string[],
    /** How host names resolve (the system resolver; a test gives its own). */
    private readonly resolver: typeof dns.lookup = dns.lookup,
  ) {
    for (const entry of allowList) {
      const [address, bits] = entry.split('/');
      const family = net.isIP(address ?? '');
      if (family && bits !== undefined) {
        this.allowedAddresses.addSubnet(address!, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
      } else if (family) {
        this.allowedAddresses.addAddress(address!, family === 4 ? 'ipv4' : 'ipv6');
      } else {
        this.allowedNames.add(entry.toLowerCase());
      }
    }
  }

  /**
   * Why a connection to this address (reached through `host`) is refused, or null. An IPv6 address
   * that carries an IPv4 one (`::ffff:127.0.0.1`, `::7f00:1`, NAT64, 6to4, Teredo: embedded-ipv4.ts)
   * is judged by that IPv4 address as well, since the connection ends up there.
   */
  refusal(host: string, address: string): string | null {
    if (this.allowedNames.has(host.toLowerCase())) return null;
    const ip = address.replace(/%.*$/, '');
    const family = net.isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (this.allowedAddresses.check(ip, family)) return null;
    if (REFUSED.check(ip, family)) return `${address} is a loopback, link-local or private address`;
    for (const carried of embeddedIPv4(ip)) {
      if (this.allowedAddresses.check(carried, 'ipv4')) continue;
      if (REFUSED.check(carried, 'ipv4'))
        return `${address} carries ${carried}, a loopback, link-local or private address`;
    }
    return null;
  }

  /**
   * Checks a URL as it is saved: http(s) only, no credentials in it, and its host (every address
   * it resolves to) allowed. Answers the problem, or null.
   */
  async urlProblem(raw: string): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'is not a URL';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
    if (url.username || url.password) return 'may not hold a user name or password';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (net.isIP(host)) addresses = [host];
    else {
      try {
        addresses = await new Promise<string[]>((resolve, reject) =>
          this.resolver(host, { all: true }, (error, found) =>
            error ? reject(error) : resolve(found.map((a) => a.address)),
          ),
        );
      } catch {
        return 'its host does not resolve';
      }
    }
    for (const address of addresses) {
      const refusal = this.refusal(host, address);
      if (refusal) return `is refused: ${refusal}`;
    }
    return null;
  }

  /** A `lookup` for http(s).request that refuses a host resolving to a refused address. */
  lookup(host: string): LookupFunction {
    return (hostname, options, callback) => {
      this.resolver(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 0);
        const list = addresses;
        for (const a of list) {
          const refusal = this.refusal(host, a.address);
          if (refusal) return callback(new OutboundRefused(refusal), '', 0);
        }
        if (options.all)
          return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      });
    };
  }
}

/** A connection the guard refused: retrying cannot help. */
export class OutboundRefused extends Error {}
