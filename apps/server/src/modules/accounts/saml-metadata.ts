import { X509Certificate } from 'node:crypto';
import type { SamlCertificate } from '@imaging-inbox/contract';
import type { XmlDocument, XmlElement } from './saml-xml.js';
import { DOMParser, xpath } from './saml-xml.js';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const select = xpath.useNamespaces({ md: MD, ds: DS });

/** What an identity provider's metadata gives: its entity ID, sign-on URL and signing certificates. */
export interface IdpMetadata {
  entityId: string;
  entryPoint: string;
  /** Base64 DER. */
  certs: string[];
}

/** A refusal of what an admin pasted, naming the field and why. */
export class SamlSettingsError extends Error {
  constructor(
    readonly field: 'idp_metadata' | 'idp_cert' | 'entry_point',
    why: string,
  ) {
    super(why);
  }
}

/**
 * An XML document parsed with no DTD: SAML messages and metadata never carry one, and refusing it
 * before parsing leaves no entity expansion (billion laughs) or external entity to worry about.
 */
export function parseXmlStrict(xml: string): XmlDocument {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new Error('a DTD is not allowed');
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: {
      warning: () => undefined,
      error: (m: unknown) => errors.push(String(m)),
      fatalError: (m: unknown) => errors.push(String(m)),
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length || !doc?.documentElement) throw new Error(`not well-formed XML: ${errors[0] ?? 'empty'}`);
  return doc;
}

/** Certificates in PEM (several may follow each other) or one bare base64 body, as base64 DER. */
export function certificatesOf(text: string, field: 'idp_cert' | 'idp_metadata'): string[] {
  const blocks = [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map(
    (m) => m[1]!,
  );
  const bodies = (blocks.length ? blocks : [text]).map((b) => b.replace(/\s+/g, ''));
  if (!bodies.length || bodies.length > 4)
    throw new SamlSettingsError(field, 'must hold one to four certificates');
  for (const body of bodies) {
    try {
      new X509Certificate(Buffer.from(body, 'base64'));
    } catch {
      throw new SamlSettingsError(field, 'must hold X.509 certificates (PEM)');
    }
  }
  return [...new Set(bodies)];
}

/** A certificate as the identity provider's admin pages show it, to compare by eye. */
export function describeCertificate(body: string): SamlCertificate {
  const cert = new X509Certificate(Buffer.from(body, 'base64'));
  return {
    subject: cert.subject.replace(/\n/g, ', ').slice(0, 256),
    not_after: new Date(cert.validTo).toISOString(),
    sha256: cert.fingerprint256,
  };
}

export const toPem = (body: string) =>
  `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----`;

/**
 * The identity provider's entity ID, its single sign-on URL for the HTTP-Redirect binding and its
 * signing certificates (KeyDescriptor use="signing" or without use), from its metadata (an
 * EntityDescriptor, or the first one of an EntitiesDescriptor holding an IDPSSODescriptor).
 */
export function parseIdpMetadata(xml: string): IdpMetadata {
  let doc: XmlDocument;
  try {
    doc = parseXmlStrict(xml);
  } catch (error) {
    throw new SamlSettingsError('idp_metadata', (error as Error).message);
  }
  const entity = select('(//md:EntityDescriptor[md:IDPSSODescriptor])[1]', doc, true) as
    XmlElement | undefined;
  const idp = entity ? (select('md:IDPSSODescriptor', entity, true) as XmlElement | undefined) : undefined;
  if (!entity || !idp)
    throw new SamlSettingsError('idp_metadata', 'holds no identity provider (IDPSSODescriptor)');
  const entityId = entity.getAttribute('entityID') ?? '';
  const sso = select(`md:SingleSignOnService[@Binding='${REDIRECT}']`, idp, true) as XmlElement | undefined;
  const entryPoint = sso?.getAttribute('Location') ?? '';
  if (!entityId) throw new SamlSettingsError('idp_metadata', 'names no entityID');
  if (!entryPoint)
    throw new SamlSettingsError('idp_metadata', 'has no single sign-on URL with the HTTP-Redirect binding');
  const certNodes = select(
    "md:KeyDescriptor[not(@use) or @use='signing']/ds:KeyInfo/ds:X509Data/ds:X509Certificate",
    idp,
  ) as XmlElement[];
  const certs = [
    ...new Set(
      certNodes
        .map((n) => n.textContent ?? '')
        .filter((t) => t.trim())
        .flatMap((t) => certificatesOf(t, 'idp_metadata')),
    ),
  ];
  if (!certs.length) throw new SamlSettingsError('idp_metadata', 'holds no signing certificate');
  if (certs.length > 4)
    throw new SamlSettingsError('idp_metadata', 'holds more than four signing certificates');
  return { entityId, entryPoint, certs };
}
