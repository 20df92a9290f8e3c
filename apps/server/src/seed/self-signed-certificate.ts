import { X509Certificate, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';

/** One DER element: its tag, its length (short or long form) and its content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
const sequence = (...content: Buffer[]) => der(0x30, ...content);
/** sha256WithRSAEncryption (1.2.840.113549.1.1.11) with its NULL parameters. */
const SHA256_WITH_RSA = sequence(Buffer.from('06092a864886f70d01010b', 'hex'), Buffer.from('0500', 'hex'));
/** A Name of one common name (2.5.4.3) as UTF8String. */
const name = (cn: string) =>
  sequence(der(0x31, sequence(Buffer.from('0603550403', 'hex'), der(0x0c, Buffer.from(cn, 'utf8')))));
/** UTCTime, YYMMDDHHMMSSZ (years 1950–2049). */
const utcTime = (at: Date) =>
  der(0x17, Buffer.from(at.toISOString().replace(/^\d\d|[-:T]|\.\d+/g, ''), 'ascii'));

/**
 * A self-signed X.509 v3 certificate (RSA, SHA-256) for `key`, made with node:crypto alone: a SAML
 * identity provider publishes its signing key as a certificate, and the demo's needs no openssl
 * command (the container image has none) nor a certificate library. For a local demo only: no
 * extensions, no CA.
 */
export function selfSignedCertificate(key: KeyObject, commonName: string, days: number): string {
  const now = Date.now();
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01; // positive and of full length
  const publicKey = createPublicKey(key).export({ format: 'der', type: 'spki' });
  const tbs = sequence(
    Buffer.from('a003020102', 'hex'), // version 3
    der(0x02, serial),
    SHA256_WITH_RSA,
    name(commonName),
    sequence(utcTime(new Date(now - 60_000)), utcTime(new Date(now + days * 86_400_000))),
    name(commonName),
    publicKey,
  );
  const signature = sign('sha256', tbs, key);
  const certificate = sequence(tbs, SHA256_WITH_RSA, der(0x03, Buffer.from([0]), signature));
  const pem = `-----BEGIN CERTIFICATE-----\n${certificate
    .toString('base64')
    .replace(/.{64}/g, '$&\n')
    .replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;
  // Read back, so a fault here shows at start rather than as a refused signature at sign-in.
  if (!new X509Certificate(pem).verify(createPublicKey(key))) throw new Error('self-signed certificate');
  return pem;
}
