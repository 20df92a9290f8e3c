import { randomBytes } from 'node:crypto';
import { SAML, SamlStatusError, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import { parseXmlStrict, toPem } from './saml-metadata.js';
import type { SsoConfigRow } from './sso.repository.js';
import type { XmlAttr } from './saml-xml.js';
import { xpath } from './saml-xml.js';

/** The most an identity provider's clock may differ from ours when an assertion's times are checked. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** An assertion older than a sign-in may take (from its IssueInstant) is refused whatever it says. */
export const SAML_MAX_ASSERTION_AGE_MS = 10 * 60_000;

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** What a valid assertion gives: its attributes (as claims, `sub` the NameID) and what the replay check needs. */
export interface SamlIdentity {
  claims: Record<string, unknown>;
  assertionId: string;
  /** When the assertion can no longer be accepted (its ID is remembered until then). */
  expires: number;
}

/**
 * The identity provider answered this sign-in without signing the person in (a status other than
 * Success, as Cancel or a refusal there sends): a refusal of the provider, not a faulty answer.
 * The library reads the status only after the response's InResponseTo matched this sign-in.
 */
export const isIdpStatusRefusal = (error: unknown): boolean => error instanceof SamlStatusError;

/** The sign-in an answer must belong to. */
export interface SamlFlowCheck {
  requestId: string;
  /** When the sign-in started. */
  started: number;
}

/** xml2js's shape, as node-saml hands the signed assertion back. */
type Node = { $?: Record<string, string>; _?: string } & Record<string, unknown>;
const children = (node: Node | undefined, name: string): Node[] =>
  (node && Array.isArray(node[name]) ? node[name] : []) as Node[];
const textOf = (node: Node | string | undefined) => (typeof node === 'string' ? node : node?._);
const timeOf = (value: string | undefined) => (value ? Date.parse(value) : Number.NaN);

/**
 * The SAML 2.0 service provider on `@node-saml/node-saml` (decision 0070): the AuthnRequest
 * (HTTP-Redirect binding, its ID chosen here and kept with the sign-in), and the checks of the
 * identity provider's response (HTTP-POST binding). The library checks the signature of the
 * assertion (required: wantAssertionsSigned, against the configured certificates only, never a
 * key the message carries), that the response holds one assertion and that only the signed one is
 * read (no signature wrapping), audience, NotBefore/NotOnOrAfter with a bounded clock skew, the
 * assertion's age, and InResponseTo. Checked here on the signed assertion besides: a bearer
 * SubjectConfirmation whose Recipient is our ACS and whose InResponseTo is this sign-in's request,
 * the Issuer when the identity provider's entity ID is known, and the response's Destination.
 */
export class SamlClients {
  constructor(
    private readonly publicUrl: string,
    private readonly now: () => number = Date.now,
  ) {}

  get acsUrl(): string {
    return `${this.publicUrl}/api/v3/session/sso/saml/acs`;
  }

  metadataUrl(accountId: string): string {
    return `${this.publicUrl}/api/v3/session/sso/saml/metadata?account_id=${encodeURIComponent(accountId)}`;
  }

  /** This service's entity ID at the account's identity provider: as set, else its metadata URL. */
  entityId(accountId: string, row?: SsoConfigRow): string {
    return row?.type === 'saml' && row.client_id ? row.client_id : this.metadataUrl(accountId);
  }

  /** A new AuthnRequest ID (an NCName: a letter first). */
  static newRequestId(): string {
    return `_${randomBytes(20).toString('hex')}`;
  }

  private saml(row: SsoConfigRow, requestId: string, flow?: SamlFlowCheck): SAML {
    const entityId = this.entityId(row.account_id, row);
    const certs = JSON.parse(row.saml_idp_certs ?? '[]') as string[];
    return new SAML({
      callbackUrl: this.acsUrl,
      entryPoint: row.saml_entry_point ?? undefined,
      issuer: entityId,
      audience: entityId,
      idpCert: certs.map(toPem),
      wantAssertionsSigned: true,
      // Entra ID, ADFS and Keycloak sign the assertion and not always the response around it.
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      maxAssertionAgeMs: SAML_MAX_ASSERTION_AGE_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SAML_MAX_ASSERTION_AGE_MS,
      // The only request an answer may name is the one of the sign-in its RelayState found.
      cacheProvider: {
        saveAsync: () => Promise.resolve(null),
        getAsync: (key: string) =>
          Promise.resolve(flow && key === flow.requestId ? new Date(flow.started).toISOString() : null),
        removeAsync: () => Promise.resolve(null),
      },
      generateUniqueId: () => requestId,
      // The identity provider chooses the NameID format and how the person authenticates (a
      // requested password context would refuse Windows sign-in and MFA at ADFS and Entra ID).
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      signatureAlgorithm: 'sha256',
    });
  }

  /** The identity provider's sign-on URL carrying the AuthnRequest `requestId` and `relayState`. */
  authorizeUrl(row: SsoConfigRow, requestId: string, relayState: string): Promise<string> {
    return this.saml(row, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /** The service provider's metadata for the identity provider's admin. */
  metadata(accountId: string, row?: SsoConfigRow): string {
    const entityId = this.entityId(accountId, row);
    return new SAML({
      callbackUrl: this.acsUrl,
      issuer: entityId,
      idpCert: 'unused',
      identifierFormat: null,
      wantAssertionsSigned: true,
    }).generateServiceProviderMetadata(null);
  }

  /** Checks a posted SAMLResponse (base64) against the account's provider and the sign-in; throws on any failure. */
  async validate(row: SsoConfigRow, samlResponse: string, flow: SamlFlowCheck): Promise<SamlIdentity> {
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    const doc = parseXmlStrict(xml); // no DTD, well-formed, before the library reads it
    const destination = xpath.select1("/*[local-name()='Response']/@Destination", doc) as XmlAttr | undefined;
    if (destination && destination.value !== this.acsUrl) {
      throw new Error(`response Destination ${destination.value.slice(0, 200)} is not this ACS`);
    }
    const { profile } = await this.saml(row, flow.requestId, flow).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    });
    if (!profile?.getAssertion) throw new Error('no assertion');
    const assertion = (profile.getAssertion() as { Assertion?: Node }).Assertion;
    const assertionId = assertion?.$?.['ID'];
    if (!assertion || !assertionId) throw new Error('assertion without ID');
    const issuer = textOf(children(assertion, 'Issuer')[0]);
    if (row.issuer && issuer !== row.issuer) {
      throw new Error(`assertion Issuer ${String(issuer).slice(0, 200)} is not ${row.issuer}`);
    }
    const expires = this.checkSubject(assertion, flow);
    return { claims: this.claimsOf(row, profile), assertionId, expires };
  }

  /**
   * A bearer confirmation for this ACS and this sign-in's request, in the signed assertion; answers
   * until when the assertion may be accepted (its earliest NotOnOrAfter, at most its maximum age).
   */
  private checkSubject(assertion: Node, flow: SamlFlowCheck): number {
    const now = this.now();
    const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation');
    const data = confirmations
      .filter((c) => c.$?.['Method'] === BEARER)
      .map((c) => children(c, 'SubjectConfirmationData')[0]?.$ ?? {})
      .find((d) => d['Recipient'] === this.acsUrl && timeOf(d['NotOnOrAfter']) > now - SAML_CLOCK_SKEW_MS);
    if (!data) throw new Error(`no bearer SubjectConfirmation with Recipient ${this.acsUrl} still valid`);
    if (data['InResponseTo'] !== flow.requestId)
      throw new Error('SubjectConfirmationData InResponseTo is not this sign-in');
    const conditions = children(assertion, 'Conditions')[0]?.$ ?? {};
    const limits = [
      timeOf(data['NotOnOrAfter']),
      timeOf(conditions['NotOnOrAfter']),
      timeOf(assertion.$?.['IssueInstant']) + SAML_MAX_ASSERTION_AGE_MS,
    ].filter((t) => Number.isFinite(t));
    return Math.min(...limits, now + SAML_MAX_ASSERTION_AGE_MS) + SAML_CLOCK_SKEW_MS;
  }

  /**
   * The attributes as claims: `sub` the NameID (unless transient, then the e-mail), the e-mail
   * from its attribute or an e-mail NameID, single values for e-mail and names, lists kept for roles.
   */
  private claimsOf(row: SsoConfigRow, profile: Profile): Record<string, unknown> {
    const attributes = (profile['attributes'] ?? {}) as Record<string, unknown>;
    const claims: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(attributes).slice(0, 200)) {
      const values = (Array.isArray(value) ? value : [value]).filter(
        (v): v is string => typeof v === 'string',
      );
      claims[name] = values.length === 1 ? values[0] : values.slice(0, 200);
    }
    for (const key of [row.claim_email, row.claim_first, row.claim_last]) {
      if (Array.isArray(claims[key])) claims[key] = (claims[key] as string[])[0];
    }
    if (claims[row.claim_email] === undefined && profile.nameIDFormat === EMAIL_FORMAT) {
      claims[row.claim_email] = profile.nameID;
    }
    const transient = !profile.nameID || profile.nameIDFormat === TRANSIENT;
    const email = typeof claims[row.claim_email] === 'string' ? (claims[row.claim_email] as string) : '';
    claims['sub'] = transient
      ? email
        ? `email:${email.toLowerCase()}`
        : undefined
      : `nameid:${profile.nameID}`;
    return claims;
  }
}
