import dns from 'node:dns';
import net from 'node:net';
import type { OutboundGuard } from './outbound-guard.js';
import { OutboundRefused } from './outbound-guard.js';

/**
 * Where an account admin may aim a PACS destination: the webhook address rules (outbound-guard.ts:
 * no loopback, link-local, private or otherwise internal address) unless the operator's
 * DICOM_ALLOWED_HOSTS names the host, its address or a range holding it. Checked when a destination
 * is saved (`problem`) and again on every connection (`address`), which connects to the address
 * it checked, so a name that later resolves somewhere internal (DNS rebinding) is still refused.
 */
export class DicomPeerGuard {
  constructor(
    private readonly guard: OutboundGuard,
    /** How host names resolve (the system resolver; a test gives its own). */
    private readonly resolver: typeof dns.lookup = dns.lookup,
  ) {}

  /** Why a destination at this host is refused, or null. */
  async problem(host: string): Promise<string | null> {
    try {
      await this.address(host);
      return null;
    } catch (error) {
      if (error instanceof OutboundRefused) return `is refused: ${error.message}`;
      return 'does not resolve to an IP address';
    }
  }

  /** The address to connect to for this host: resolved and allowed, else OutboundRefused. */
  async address(host: string): Promise<string> {
    const addresses = net.isIP(host) ? [host] : await this.resolve(host);
    if (!addresses.length) throw new Error(`${host} does not resolve`);
    for (const address of addresses) {
      const refusal = this.guard.refusal(host, address);
      if (refusal) throw new OutboundRefused(refusal);
    }
    return addresses[0]!;
  }

  private resolve(host: string): Promise<string[]> {
    return new Promise((resolve, reject) =>
      this.resolver(host, { all: true }, (error, found) =>
        error ? reject(error) : resolve(found.map((a) => a.address)),
      ),
    );
  }
}
