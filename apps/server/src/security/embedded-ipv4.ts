import net from 'node:net';

/**
 * The IPv4 addresses an IPv6 address carries, for judging it by the IPv4 rules: a connection to
 * `::ffff:127.0.0.1` or `64:ff9b::7f00:1` reaches 127.0.0.1 just the same (through the kernel, a
 * NAT64 gateway or a 6to4/Teredo relay). Empty for an IPv4 address, an invalid one, or an IPv6
 * address that embeds none.
 *
 * The forms: IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`, IPv4-compatible
 * `::/96` (deprecated, still routed by some stacks), NAT64 `64:ff9b::/96` (RFC 6052), 6to4
 * `2002::/16` (bits 16-47) and Teredo `2001::/32` (the server at bits 32-63 and the client,
 * inverted, at bits 96-127: both are judged). NAT64's local-use `64:ff9b:1::/48` puts the address
 * where the operator chose, so the guard refuses that whole range instead.
 */
export function embeddedIPv4(address: string): string[] {
  const bytes = ipv6Bytes(address);
  if (!bytes) return [];
  const v4 = (at: number, invert = false) =>
    Array.from(bytes.subarray(at, at + 4), (b) => (invert ? b ^ 0xff : b)).join('.');
  const zero = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  const word = (at: number) => (bytes[at]! << 8) | bytes[at + 1]!;

  // ::/96 (compatible, `::` and `::1` among them), ::ffff:0:0/96 (mapped), ::ffff:0:0:0/96 (translated)
  if (zero(0, 10) && (word(10) === 0 || word(10) === 0xffff)) return [v4(12)];
  if (zero(0, 8) && word(8) === 0xffff && word(10) === 0) return [v4(12)];
  // NAT64 well-known prefix 64:ff9b::/96
  if (word(0) === 0x64 && word(2) === 0xff9b && zero(4, 12)) return [v4(12)];
  // 6to4 2002::/16: the site's IPv4 follows the prefix
  if (word(0) === 0x2002) return [v4(2)];
  // Teredo 2001:0::/32: the server, then the client's address inverted
  if (word(0) === 0x2001 && word(2) === 0) return [v4(4), v4(12, true)];
  return [];
}

/** The 16 bytes of an IPv6 address (a zone `%eth0` ignored), or null when it is not one. */
export function ipv6Bytes(address: string): Uint8Array | null {
  const plain = address.replace(/%.*$/, '');
  if (!net.isIPv6(plain)) return null;
  // A trailing dotted quad counts as two groups.
  let text = plain;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const all =
    tail === undefined
      ? left
      : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (all.length !== 8) return null;
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}
