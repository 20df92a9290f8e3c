import net from 'node:net';

/**
 * A connection's or a registered sender's IP address in one form, so the two compare equal: an
 * IPv4 address reached over an IPv6 socket (`::ffff:10.0.0.5`) is the IPv4 address, IPv6 is lower
 * case. Undefined when it is not an IP address.
 */
export function normalIpAddress(raw: string | undefined): string | undefined {
  const value = raw?.trim() ?? '';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
  const address = mapped ? mapped[1]! : value;
  const kind = net.isIP(address);
  if (kind === 4) return address;
  if (kind === 6) return address.toLowerCase();
  return undefined;
}
