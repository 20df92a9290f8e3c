import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';
import { ownServer } from '../support/server';

// A server of its own: the page saves the demo account's provider, which no other spec expects.
const own = ownServer();
const ADMIN = 'admin@demo.local';

const TEXTS = {
  en: {
    title: 'Single sign-on',
    name: 'Name shown on the sign-in page',
    issuer: 'Issuer URL',
    clientId: 'Client ID',
    secret: 'Client secret',
    enabled: 'Sign-in with this provider is on',
    require: 'Require single sign-on (no password sign-in)',
    breakGlass: 'Admin who may still sign in with a password (e-mail)',
    save: 'Save',
    saved: 'Saved',
    secretSet: 'A secret is set: leave empty to keep it',
    metadata: 'Identity provider metadata (XML)',
    acs: 'Reply URL (Assertion Consumer Service, HTTP-POST)',
    certificate: 'Certificate in use: CN=idp.hospital.example',
  },
  fr: {
    title: 'Authentification unique',
    name: 'Nom affiché sur la page de connexion',
    issuer: 'URL de l’émetteur (issuer)',
    clientId: 'Identifiant client',
    secret: 'Secret client',
    enabled: 'La connexion par ce fournisseur est active',
    require: 'Exiger l’authentification unique (pas de connexion par mot de passe)',
    breakGlass: 'Administrateur pouvant encore se connecter par mot de passe (courriel)',
    save: 'Enregistrer',
    saved: 'Enregistré',
    secretSet: 'Un secret est enregistré : laissez vide pour le garder',
    metadata: 'Métadonnées du fournisseur d’identité (XML)',
    acs: 'URL de réponse (Assertion Consumer Service, HTTP-POST)',
    certificate: 'Certificat en service : CN=idp.hospital.example',
  },
} as const;

/** A SAML identity provider's metadata as Entra ID or ADFS publish it, with a certificate made for it. */
function idpMetadata(): string {
  const pem = execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    '/dev/null',
    '-subj',
    '/CN=idp.hospital.example',
    '-days',
    '2',
  ]).toString();
  const cert = pem.replace(/-----[A-Z ]+-----|\s/g, '');
  return `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.hospital.example/saml"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.hospital.example/saml/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
}

/** Administration → Single sign-on: the account's OpenID Connect provider, then SAML, in English and French. */
describe('administration: the single sign-on page', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(own.baseUrl);
  });
  afterEach(async () => {
    await b?.close();
  });

  for (const language of ['en', 'fr'] as const) {
    it(`saves the provider and shows a refused field, in ${language}`, async () => {
      const texts = TEXTS[language];
      const baseUrl = own.baseUrl;
      const sid = await apiLogin(baseUrl, ADMIN);
      await apiPost(baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
      await signIn(b.page, ADMIN);
      await b.page.waitForURL('**/group/list');
      await b.page.goto('/organization/sso.html');
      await b.page.getByRole('heading', { name: texts.title }).waitFor();
      const { page } = b;
      // The run before left SAML chosen.
      await page.getByRole('button', { name: 'OpenID Connect' }).click();
      await page.getByLabel(texts.name).fill('Hospital ID');
      await page.getByLabel(texts.issuer).fill('https://id.hospital.example');
      await page.getByLabel(texts.clientId).fill('imaging-inbox');
      await page.getByLabel(texts.secret).fill('a-secret');
      await page.getByRole('button', { name: texts.save }).click();
      await page.getByText(texts.saved, { exact: true }).waitFor();
      await page.getByText(texts.secretSet).waitFor();
      await page.getByRole('heading', { name: texts.title }).scrollIntoViewIfNeeded();
      await screenshot(page, `admin-sso-${language}`);

      // Required SSO with a break-glass address that is no admin: the server names the field.
      await page.getByLabel(texts.require).check();
      await page.getByLabel(texts.breakGlass).fill('nobody@demo.local');
      await page.getByRole('button', { name: texts.save }).click();
      await page.getByText('must be an admin of this account').waitFor();
      expect(await page.getByLabel(texts.breakGlass).getAttribute('aria-invalid')).toBe('true');
      await page.getByRole('button', { name: texts.save }).scrollIntoViewIfNeeded();
      await screenshot(page, `admin-sso-refused-${language}`);

      // Turned off again, so the next sign-in page asks for a password as the demo world does.
      await page.getByLabel(texts.require).uncheck();
      await page.getByLabel(texts.breakGlass).fill('');
      await page.getByLabel(texts.enabled).uncheck();
      await page.getByRole('button', { name: texts.save }).click();
      await page.getByText(texts.saved, { exact: true }).waitFor();

      // SAML (kept off): the values to register are shown, the pasted metadata read by the server.
      await page.getByRole('button', { name: 'SAML 2.0' }).click();
      await page.getByText(texts.acs).waitFor();
      await page.getByText(/\/api\/v3\/session\/sso\/saml\/acs$/).waitFor();
      await page.getByLabel(texts.metadata).fill(idpMetadata());
      await page.getByRole('button', { name: texts.save }).click();
      await page.getByText(texts.saved, { exact: true }).waitFor();
      await page.getByText(texts.certificate).waitFor();
      await page.getByRole('heading', { name: texts.title }).scrollIntoViewIfNeeded();
      await screenshot(page, `admin-sso-saml-${language}`);
      await page.getByText(texts.certificate).scrollIntoViewIfNeeded();
      await screenshot(page, `admin-sso-saml-certificate-${language}`);
      // The OIDC client ID did not become the SAML entity ID: the default (the metadata URL) is shown.
      await page
        .getByText(/\/api\/v3\/session\/sso\/saml\/metadata\?account_id=/)
        .first()
        .waitFor();
      expect(await page.getByText('imaging-inbox', { exact: true }).count()).toBe(0);
      const errors = b.errors.filter((e) => !/script-src blocked eval/.test(e));
      expect(errors, errors.join('\n')).toEqual([]);
    });
  }
});
