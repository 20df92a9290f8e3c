import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';
import type { TestPki } from './tls-certs.js';

/**
 * samlify, loaded untyped and given the members used here: its declarations import
 * @xmldom/xmldom's, which pull the browser's DOM library into the whole server program (its `fetch`
 * would then refuse the Node bodies the other tests post).
 */
interface SamlEntity {
  entityMeta: {
    getEntityID(): string;
    getAssertionConsumerService(binding: 'post'): unknown;
  };
}
interface SamlIdentityProvider {
  getMetadata(): string;
  parseLoginRequest(
    sp: SamlEntity,
    binding: 'redirect',
    request: { query: Record<string, string> },
  ): Promise<{
    extract: { issuer: unknown; request?: { id: unknown; assertionConsumerServiceUrl?: unknown } };
  }>;
  createLoginResponse(
    sp: SamlEntity,
    request: { extract: { request: { id: string } } },
    binding: 'post',
    user: { email: string },
    template: () => { id: string; context: string },
  ): Promise<{ context: string }>;
}
interface Samlify {
  setSchemaValidator(validator: unknown): void;
  IdentityProvider(options: object): SamlIdentityProvider;
  ServiceProvider(options: object): SamlEntity;
  SamlLib: { defaultLoginResponseTemplate: { context: string } };
}
const load = createRequire(import.meta.url);
const samlify = load('samlify') as Samlify;
// samlify reads the AuthnRequest through a schema validator: xmllint compiled to JavaScript, no Java.
samlify.setSchemaValidator(load('@authenio/samlify-node-xmllint'));

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

export interface SamlUser {
  nameId: string;
  email: string;
  first?: string;
  last?: string;
  groups?: string[];
}

/** What one response says and how it is signed; absent fields take what a right answer holds. */
export interface SamlAnswer {
  user: SamlUser;
  /** The AuthnRequest's ID it answers (InResponseTo). */
  inResponseTo: string;
  /** assertion (right), response (the assertion unsigned inside a signed response), none. */
  sign?: 'assertion' | 'response' | 'none';
  /** Signed with a key the service provider does not know. */
  foreignKey?: boolean;
  audience?: string;
  recipient?: string;
  destination?: string;
  issueInstant?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
}

const escape = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** The attributes the way Entra ID and ADFS name them, plus a multi-valued `groups`. */
function attributeStatement(user: SamlUser): string {
  const attribute = (name: string, values: string[]) =>
    `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values
      .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escape(v)}</saml:AttributeValue>`)
      .join('')}</saml:Attribute>`;
  const claims = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
  return `<saml:AttributeStatement>${[
    attribute(`${claims}/emailaddress`, [user.email]),
    user.first ? attribute(`${claims}/givenname`, [user.first]) : '',
    user.last ? attribute(`${claims}/surname`, [user.last]) : '',
    user.groups ? attribute('groups', user.groups) : '',
  ].join('')}</saml:AttributeStatement>`;
}

/**
 * A real SAML identity provider in the test process: samlify's IdentityProvider with a key of the
 * test PKI, reading the service provider from the metadata the server serves, parsing the
 * AuthnRequest from the sign-on redirect and answering with a response it signs (or not).
 */
export class SamlTestIdp {
  readonly entityId = 'https://idp.test.example/saml';
  readonly ssoUrl = 'https://idp.test.example/saml/sso';
  private readonly idp: SamlIdentityProvider;
  private readonly stranger: SamlIdentityProvider;

  constructor(pki: TestPki) {
    const options = (name: string) => ({
      entityID: this.entityId,
      signingCert: pki.text(`${name}.pem`),
      privateKey: pki.text(`${name}.key`),
      singleSignOnService: [{ Binding: REDIRECT, Location: this.ssoUrl }],
      nameIDFormat: [PERSISTENT],
      requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    this.idp = samlify.IdentityProvider(options('server'));
    this.stranger = samlify.IdentityProvider(options('stranger'));
  }

  /** The identity provider's metadata, as an admin downloads it for the service provider. */
  get metadata(): string {
    return this.idp.getMetadata();
  }

  /** The AuthnRequest the sign-on redirect carries, read as the identity provider reads it. */
  async readRequest(spMetadata: string, location: string) {
    const url = new URL(location);
    const sp = samlify.ServiceProvider({ metadata: spMetadata });
    const query = Object.fromEntries(url.searchParams);
    const parsed = await this.idp.parseLoginRequest(sp, 'redirect', { query });
    const xml = inflateRawSync(Buffer.from(query['SAMLRequest']!, 'base64')).toString('utf8');
    return {
      id: parsed.extract.request!.id as string,
      acsUrl: parsed.extract.request!.assertionConsumerServiceUrl as string | undefined,
      issuer: parsed.extract.issuer as string,
      relayState: query['RelayState']!,
      xml,
    };
  }

  /** A base64 SAMLResponse as the browser would post it to the service provider's ACS. */
  async respond(spMetadata: string, answer: SamlAnswer): Promise<string> {
    const sign = answer.sign ?? 'assertion';
    const ours = samlify.ServiceProvider({ metadata: spMetadata });
    const spEntity = ours.entityMeta.getEntityID();
    const acs = ours.entityMeta.getAssertionConsumerService('post') as string;
    // samlify signs the assertion when the SP's metadata asks for it (ours does), else the
    // response around it: an SP described without that wish gets an unsigned assertion.
    const sp =
      sign === 'assertion'
        ? ours
        : samlify.ServiceProvider({
            entityID: spEntity,
            assertionConsumerService: [
              { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: acs },
            ],
            wantAssertionsSigned: false,
            wantMessageSigned: true,
          });
    const now = answer.issueInstant ?? new Date();
    const later = answer.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
    const values: Record<string, string> = {
      ID: `_r${Math.random().toString(16).slice(2)}`,
      AssertionID: answer.assertionId ?? `_a${Math.random().toString(16).slice(2)}`,
      Destination: answer.destination ?? acs,
      Audience: answer.audience ?? spEntity,
      SubjectRecipient: answer.recipient ?? acs,
      Issuer: this.entityId,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: later.toISOString(),
      NameIDFormat: PERSISTENT,
      NameID: answer.user.nameId,
      InResponseTo: answer.inResponseTo,
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: attributeStatement(answer.user),
    };
    // samlify's own template, filled here: its filler escapes the statements this answer adds.
    const template = samlify.SamlLib.defaultLoginResponseTemplate.context;
    const raw = new Set(['AuthnStatement', 'AttributeStatement']);
    const xml = template.replace(/\{(\w+)\}/g, (_, tag: string) =>
      raw.has(tag) ? (values[tag] ?? '') : escape(values[tag] ?? ''),
    );
    if (sign === 'none') return Buffer.from(xml).toString('base64');
    const idp = answer.foreignKey ? this.stranger : this.idp;
    const made = await idp.createLoginResponse(
      sp,
      { extract: { request: { id: answer.inResponseTo } } },
      'post',
      { email: answer.user.email },
      () => ({ id: values['ID']!, context: xml }),
    );
    return made.context;
  }
}

/** The response's XML, for tests that change it after signing. */
export const decode = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8');
export const encode = (xml: string) => Buffer.from(xml).toString('base64');
