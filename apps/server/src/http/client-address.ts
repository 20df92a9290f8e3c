import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Named ranges TRUST_PROXY accepts besides addresses and CIDRs (as Fastify's own parser names them). */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** More hops than any real chain of proxies: a longer X-Forwarded-For is not walked at all. */
const MAX_HOPS = 16;

/** The reverse proxies whose X-Forwarded-* headers are believed (TRUST_PROXY). */
export class TrustedProxies {
  private readonly list = new net.BlockList();
  readonly empty: boolean;

  /**
   * `spec`: comma-separated IPs, CIDRs and the names loopback, linklocal, uniquelocal; unset or
   * empty trusts nobody. Throws on any other entry, so a typo cannot trust more or less than meant.
   */
  constructor(spec: string | undefined) {
    const entries = (spec ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    this.empty = entries.length === 0;
    for (const entry of entries.flatMap((e) => NAMED_RANGES[e.toLowerCase()] ?? [e])) {
      const [address = '', bits, extra] = entry.split('/');
      const family = net.isIP(address);
      const max = family === 6 ? 128 : 32;
      const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
      if (!family || extra !== undefined || !(prefix <= max))
        throw new Error(
          `TRUST_PROXY: "${entry}" is not an IP address, a CIDR or loopback/linklocal/uniquelocal`,
        );
      this.list.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
    }
  }

  has(address: string): boolean {
    const family = net.isIP(address);
    return family !== 0 && this.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}

const LOOPBACK = new TrustedProxies('loopback');

/** Whether `address` is this machine's own (127.0.0.0/8, ::1, or either written as IPv6). */
export function isLoopback(address: string): boolean {
  return LOOPBACK.has(address);
}

/**
 * The client's address as the proxies we trust saw it: X-Forwarded-For is walked from the right
 * (the hop nearest us), skipping the proxies we trust; the first address that is not one of them is
 * the client. Only the proxies we trust wrote the entries walked so far; everything left of the client
 * was sent by the client, so it is never read. That entry must be an IP address: anything else (a
 * forged `=HYPERLINK(…)`, a port, a name), an over-long chain, or a connection that did not come
 * from a trusted proxy gives the socket's own address.
 */
export function clientAddress(
  socketAddress: string,
  forwardedFor: string | string[] | undefined,
  trusted: TrustedProxies,
): string {
  if (!forwardedFor || !trusted.has(socketAddress)) return socketAddress;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = header.split(',', MAX_HOPS + 1).map((hop) => hop.trim());
  if (hops.length > MAX_HOPS) return socketAddress;
  let nearest = socketAddress;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!net.isIP(hop)) return socketAddress;
    nearest = hop;
    if (!trusted.has(hop)) return hop;
  }
  // Every hop is a proxy we trust: the farthest one is as near the client as we know.
  return nearest;
}

/**
 * Fastify's `request.ip` (through its trustProxy) believes the right-most untrusted entry whatever it
 * is, so the audit stored a forged `=HYPERLINK(…)` as an address. Before anything reads it, the
 * header is replaced by the one address `clientAddress` settles on, or removed when that is the
 * socket's, so `request.ip` (and every audit row and sign-in count behind it) is a real address.
 */
export function believeOnlyTrustedProxies(app: FastifyInstance, trusted: TrustedProxies): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const headers = request.raw.headers;
    if (headers['x-forwarded-for'] !== undefined) {
      const socket = request.raw.socket.remoteAddress ?? '';
      const client = clientAddress(socket, headers['x-forwarded-for'], trusted);
      if (client === socket) delete headers['x-forwarded-for'];
      else headers['x-forwarded-for'] = client;
    }
    done();
  });
}
