import { createPrivateKey, X509Certificate } from 'node:crypto';
import { DESTINATION_TLS_PEM_MAX_LENGTH } from '@imaging-inbox/contract';
import type { Destination } from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';
import type { PeerTls } from '../../dimse/client/index.js';

/**
 * A destination's DICOM TLS settings (decision 0065): the flag and the PEM texts of its CA, our
 * client certificate and that certificate's private key, kept in the destination's row. Checked
 * when written (each parses, the key is unencrypted and belongs to the certificate); the key is
 * never answered, the certificates only to those who manage the account's destinations.
 */

/** The TLS fields of destination/add and destination/set, as sent. */
export interface TlsFields {
  tls?: string | undefined;
  tls_ca?: string | undefined;
  tls_cert?: string | undefined;
  tls_key?: string | undefined;
}

/** The columns they become (undefined: not given, null: cleared). */
export interface TlsColumns {
  tls?: number;
  tls_ca?: string | null;
  tls_cert?: string | null;
  tls_key?: string | null;
}

type TlsRow = {
  tls: number | string;
  tls_ca: string | null;
  tls_cert: string | null;
  tls_key: string | null;
};

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/**
 * The TLS fields checked against what the row holds now (`current`, undefined for a new one):
 * a certificate needs its key and the key its certificate, in the row as it will be.
 */
export function cleanTls(fields: TlsFields, current?: TlsRow): TlsColumns {
  const out: TlsColumns = {};
  const flag = fields.tls?.trim();
  if (flag !== undefined && flag !== '') {
    if (flag !== '0' && flag !== '1') throw invalidField('tls', 'must be 0 or 1');
    out.tls = Number(flag);
  }
  const text = (name: 'tls_ca' | 'tls_cert' | 'tls_key') => {
    const raw = fields[name];
    if (raw === undefined) return undefined;
    const pem = raw.trim();
    if (!pem) return null;
    if (pem.length > DESTINATION_TLS_PEM_MAX_LENGTH) {
      throw invalidField(name, `at most ${DESTINATION_TLS_PEM_MAX_LENGTH} characters of PEM`);
    }
    return pem;
  };
  const ca = text('tls_ca');
  if (ca) certificates(ca, 'tls_ca');
  if (ca !== undefined) out.tls_ca = ca;
  const cert = text('tls_cert');
  if (cert !== undefined) out.tls_cert = cert;
  const key = text('tls_key');
  if (key !== undefined) out.tls_key = key;
  const finalCert = cert !== undefined ? cert : (current?.tls_cert ?? null);
  const finalKey = key !== undefined ? key : (current?.tls_key ?? null);
  if (finalCert && !finalKey) throw invalidField('tls_key', 'is required with tls_cert');
  if (finalKey && !finalCert) throw invalidField('tls_cert', 'is required with tls_key');
  if (finalCert && finalKey && (cert || key)) {
    const [leaf] = certificates(finalCert, 'tls_cert');
    let privateKey;
    try {
      privateKey = createPrivateKey({ key: finalKey, format: 'pem' });
    } catch {
      throw invalidField('tls_key', 'is not an unencrypted PEM private key');
    }
    if (!leaf!.checkPrivateKey(privateKey)) throw invalidField('tls_key', 'does not belong to tls_cert');
  }
  return out;
}

/** Every certificate of a PEM text, or INVALID_FIELD naming the field. */
function certificates(pem: string, field: string): X509Certificate[] {
  const blocks = [...pem.matchAll(PEM_BLOCK)];
  if (!blocks.length || blocks.some((b) => b[1] !== 'CERTIFICATE')) {
    throw invalidField(field, 'must be PEM certificates (-----BEGIN CERTIFICATE-----)');
  }
  if (blocks.length > 100) throw invalidField(field, 'at most 100 certificates');
  try {
    return blocks.map((b) => new X509Certificate(b[0]));
  } catch {
    throw invalidField(field, 'holds a certificate that cannot be read');
  }
}

/** How we connect to a destination: over TLS with its settings, or undefined for plain TCP. */
export function peerTls(row: TlsRow): PeerTls | undefined {
  if (!Number(row.tls)) return undefined;
  return {
    ca: row.tls_ca ?? undefined,
    cert: row.tls_cert ?? undefined,
    key: row.tls_key ?? undefined,
  };
}

/** What destination/get and /list answer of the TLS settings: certificates only to managers, never the key. */
export function tlsView(
  row: TlsRow,
  manager: boolean,
): Pick<Destination, 'tls' | 'tls_ca' | 'tls_cert' | 'tls_key_set'> {
  return {
    tls: Number(row.tls) ? 1 : 0,
    tls_ca: manager ? row.tls_ca : null,
    tls_cert: manager ? row.tls_cert : null,
    tls_key_set: row.tls_key ? 1 : 0,
  };
}

/** What the audit log records of them: the flag and which texts are set, never their content. */
export function tlsAudit(row: TlsRow): Record<string, unknown> {
  if (!Number(row.tls) && !row.tls_ca && !row.tls_cert) return {};
  return { tls: Number(row.tls) ? 1 : 0, tls_ca: Boolean(row.tls_ca), tls_cert: Boolean(row.tls_cert) };
}
