import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * The security team's audit collector (IHE ATNA, decision 0068): the variables config.ts reads for
 * it and the settings they make. Off unless ATNA_HOST is set.
 */
export const ATNA_ENV = {
  /** The syslog collector's host; unset: audit events stay in the product only. */
  ATNA_HOST: z.string().trim().min(1).max(255).optional(),
  /** Its port (default 6514 over TLS, 514 over TCP or UDP). */
  ATNA_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** tls (RFC 5425, the default), tcp (RFC 6587) or udp (RFC 5426): the last two for tests and labs. */
  ATNA_TRANSPORT: z.enum(['tls', 'tcp', 'udp']).default('tls'),
  /** PEM CA certificate(s) the collector's certificate must chain to; the system's CAs when unset. */
  ATNA_CA_FILE: z.string().min(1).optional(),
  /** Our client certificate and its key, for a collector that asks for one (mutual TLS). */
  ATNA_CERT_FILE: z.string().min(1).optional(),
  ATNA_KEY_FILE: z.string().min(1).optional(),
  /** The syslog APP-NAME and the application's UserID in each message. */
  ATNA_APP_NAME: z
    .string()
    .regex(/^[\x21-\x7e]{1,48}$/, '1 to 48 printable ASCII characters, no space')
    .default('imaging-inbox'),
  /** AuditEnterpriseSiteID: the hospital's site as its security team names it. */
  ATNA_SITE_ID: z.string().trim().min(1).max(64).optional(),
  /** AuditSourceID: this installation (default the host name). */
  ATNA_SOURCE_ID: z.string().trim().min(1).max(64).optional(),
  /** First wait before trying an unreachable collector again; doubles, at most a minute. */
  ATNA_RETRY_MS: z.coerce.number().int().min(10).max(60_000).default(5_000),
  /** Queued messages from which the log says so and the metric `imaging_inbox_atna_queue_alert` is 1. */
  ATNA_QUEUE_ALERT: z.coerce.number().int().min(1).default(10_000),
};

export interface AtnaConfig {
  collector: {
    host: string;
    port: number;
    transport: 'tls' | 'tcp' | 'udp';
    caFile: string | undefined;
    certFile: string | undefined;
    keyFile: string | undefined;
  };
  appName: string;
  siteId: string | undefined;
  sourceId: string;
  retryMs: number;
  queueAlert: number;
}

type AtnaEnv = z.output<z.ZodObject<typeof ATNA_ENV>>;

/** The collector's settings, or undefined without ATNA_HOST; a TLS-only file on another transport is an error. */
export function atnaConfig(e: AtnaEnv, fail: (message: string) => Error): AtnaConfig | undefined {
  const files = [e.ATNA_CA_FILE, e.ATNA_CERT_FILE, e.ATNA_KEY_FILE];
  if (!e.ATNA_HOST) {
    if (e.ATNA_PORT !== undefined || files.some(Boolean))
      throw fail('ATNA_PORT and ATNA_*_FILE need ATNA_HOST');
    return undefined;
  }
  if (e.ATNA_TRANSPORT !== 'tls' && files.some(Boolean))
    throw fail('ATNA_CA_FILE, ATNA_CERT_FILE and ATNA_KEY_FILE apply to ATNA_TRANSPORT=tls only');
  if (!e.ATNA_CERT_FILE !== !e.ATNA_KEY_FILE) throw fail('ATNA_CERT_FILE and ATNA_KEY_FILE go together');
  const file = (f: string | undefined) => (f ? path.resolve(f) : undefined);
  return {
    collector: {
      host: e.ATNA_HOST,
      port: e.ATNA_PORT ?? (e.ATNA_TRANSPORT === 'tls' ? 6514 : 514),
      transport: e.ATNA_TRANSPORT,
      caFile: file(e.ATNA_CA_FILE),
      certFile: file(e.ATNA_CERT_FILE),
      keyFile: file(e.ATNA_KEY_FILE),
    },
    appName: e.ATNA_APP_NAME,
    siteId: e.ATNA_SITE_ID,
    sourceId: e.ATNA_SOURCE_ID ?? os.hostname(),
    retryMs: e.ATNA_RETRY_MS,
    queueAlert: e.ATNA_QUEUE_ALERT,
  };
}
