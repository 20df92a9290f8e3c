/**
 * How the DICOM listener compares an association's address with a registered sender's host (an IP
 * address, or `*` for any): shared by the listener and group/scanner/validate, so both say the same.
 */

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as its IPv4 form. */
export function normalizeIp(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** Whether a sender registered at `registered` may connect from `ip` (already normalized). */
export function hostMatches(registered: string, ip: string): boolean {
  return registered === '*' || normalizeIp(registered) === ip;
}
