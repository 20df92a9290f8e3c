import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalSamlIdentityProvider } from '../../apps/server/src/seed/demo-saml-identity-provider';
import { startLocalSamlIdentityProvider } from '../../apps/server/src/seed/demo-saml-identity-provider';
import { apiLogin, apiPost } from '../support/actions';
import { SMALL_WINDOW, openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { ownServer } from '../support/server';

// A server of its own: the demo account's provider is set here, which no other spec expects.
const own = ownServer();
const ADMIN = 'admin@demo.local';
const USER = 'clinician@demo.local';
/** The clinician's password at the identity provider: not the inbox's demo password. */
const IDP_PASSWORD = 'Hospital-directory-pass-7';

const TEXTS = {
  en: {
    emailFirst: 'Enter your work e-mail address to sign in.',
    email: 'Email',
    continue: 'Continue',
    cancelled: 'Your identity provider did not sign you in: the sign-in was cancelled or refused there.',
    userMenu: 'User menu',
    logOut: 'Log out',
  },
  fr: {
    emailFirst: 'Saisissez votre adresse e-mail professionnelle pour vous connecter.',
    email: 'E-mail',
    continue: 'Continuer',
    cancelled:
      "Votre fournisseur d'identité ne vous a pas connecté : la connexion y a été annulée ou refusée.",
    userMenu: 'Menu utilisateur',
    logOut: 'Se déconnecter',
  },
} as const;
type Language = keyof typeof TEXTS;

/**
 * Sign-in through the account's SAML 2.0 identity provider in the browser: a real samlify IdP in
 * this process (`seed/demo-saml-identity-provider.ts`) with its own sign-in page, which checks the
 * password; the AuthnRequest goes out on the redirect binding, the signed assertion comes back
 * posted to the ACS by the provider's page, the inbox opens; logout ends the session. A wrong
 * password leaves no session; Cancel at the provider (a Response of status AuthnFailed) comes back
 * to the sign-in page with the reason in the page's language.
 */
describe('single sign-on through a SAML 2.0 identity provider, in the browser', () => {
  let idp: LocalSamlIdentityProvider;
  beforeAll(async () => {
    const base = own.baseUrl;
    const sid = await apiLogin(base, ADMIN);
    const { account_id: accountId } = await apiPost<{ account_id: string }>(base, 'session/user', { sid });
    // What the identity provider's admin registers: this service's entity ID and ACS.
    const sp = await apiPost<{ saml: { entity_id: string; acs_url: string } }>(base, 'account/sso/get', {
      sid,
      account_id: accountId,
    });
    idp = await startLocalSamlIdentityProvider({
      serviceProviders: [{ entityId: sp.saml.entity_id, acsUrl: sp.saml.acs_url, name: 'Imaging Inbox' }],
      users: [
        { login: USER, password: IDP_PASSWORD, email: USER, given_name: 'Claire', family_name: 'Clinician' },
      ],
    });
    // The admin pastes the identity provider's metadata (the admin page is tested in admin-sso).
    const set = await apiPost<{ status: string; sso: { issuer: string } }>(base, 'account/sso/set', {
      sid,
      account_id: accountId,
      type: 'saml',
      enabled: '1',
      display_name: 'Hospital SAML',
      idp_metadata: idp.metadata,
      domains: 'demo.local',
    });
    expect(set.status, JSON.stringify(set)).toBe('OK');
    expect(set.sso.issuer).toBe(idp.entityId);
    await apiPost(base, 'session/logout', { sid });
  });
  afterAll(() => idp?.stop());

  let b: BrowserSession;
  // Any answer of 400 or more a page loads, by address (the console names only the status).
  let failed: string[] = [];
  beforeEach(async () => {
    b = await openBrowser(own.baseUrl);
    await b.page.setViewportSize(SMALL_WINDOW);
    failed = [];
    b.page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
  });
  afterEach(() => b?.close());

  /** The sign-in page in `language` (this device's choice), and the clinician's own choice after it. */
  async function inLanguage(language: Language) {
    await b.context.addInitScript((lang) => {
      if (lang !== 'en') localStorage.setItem('language', lang);
    }, language);
    const sid = await apiLogin(own.baseUrl, USER);
    await apiPost(own.baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
    await apiPost(own.baseUrl, 'session/logout', { sid });
  }

  /** The inbox's e-mail step, then on to the identity provider's own page. */
  async function toProvider(page: Page, language: Language) {
    await page.goto('/');
    await page.getByText(TEXTS[language].emailFirst).waitFor();
    await page.getByLabel(TEXTS[language].email).fill(USER);
    await page.getByRole('button', { name: TEXTS[language].continue }).click();
    await page.waitForURL(`${new URL(idp.ssoUrl).origin}/interaction/**`);
    await page.getByLabel('Password').waitFor();
  }

  async function atProvider(page: Page, login: string, password: string) {
    await page.getByLabel('Login').fill(login);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  const sidIn = (page: Page) => page.evaluate(() => sessionStorage.getItem('sid'));
  const sessionAnswer = (sid: string) =>
    apiPost<{ status: string; email?: string }>(own.baseUrl, 'session/user', { sid });

  for (const language of ['en', 'fr'] as const) {
    it(`in ${language}: the e-mail, the identity provider's page, the inbox; logout ends the session`, async () => {
      await inLanguage(language);
      const { page } = b;
      await toProvider(page, language);
      await screenshot(page, `sso-saml-sign-in-provider-${language}`);
      await atProvider(page, USER, IDP_PASSWORD);
      await page.waitForURL('**/group/list');
      // The provider's posted answer and the landing went out of history: the address carries no sid.
      expect(page.url()).toBe(`${own.baseUrl}/group/list`);
      await page.getByRole('button', { name: TEXTS[language].userMenu }).waitFor();
      await screenshot(page, `sso-saml-sign-in-landed-${language}`);
      const sid = await sidIn(page);
      expect(sid).toBeTruthy();
      expect(await sessionAnswer(sid!)).toMatchObject({ status: 'OK', email: USER });

      // Logout ends the local session (no SAML single logout): back to the sign-in page.
      await page.getByRole('button', { name: TEXTS[language].userMenu }).click();
      await page.getByRole('menuitem', { name: TEXTS[language].logOut }).click();
      await page.getByText(TEXTS[language].emailFirst).waitFor();
      expect(await sidIn(page)).toBeNull();
      expect((await sessionAnswer(sid!)).status).toBe('ERROR');
      expect(b.errors, [...b.errors, ...failed].join('\n')).toEqual([]);
    });
  }

  it('a wrong password at the identity provider, or a login it does not know, leaves no session', async () => {
    const { page } = b;
    await toProvider(page, 'en');
    await atProvider(page, USER, 'not-the-password');
    await page.getByRole('alert').getByText('Wrong login or password.').waitFor();
    expect(page.url().startsWith(`${new URL(idp.ssoUrl).origin}/interaction/`)).toBe(true);
    await atProvider(page, 'nobody@demo.local', IDP_PASSWORD);
    await page.getByRole('alert').getByText('Wrong login or password.').waitFor();
    // Nothing reached the inbox: no session in the app's tab, and its pages ask for sign-in.
    await page.goto('/group/list');
    await page.getByText(TEXTS.en.emailFirst).waitFor();
    expect(await sidIn(page)).toBeNull();
    expect(b.errors, [...b.errors, ...failed].join('\n')).toEqual([]);
  });

  for (const language of ['en', 'fr'] as const) {
    it(`in ${language}: Cancel at the identity provider comes back to the sign-in page, told why`, async () => {
      await inLanguage(language);
      const { page } = b;
      await toProvider(page, language);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${own.baseUrl}/?sso_error=provider_error`);
      await page.getByText(TEXTS[language].cancelled).waitFor();
      expect(await sidIn(page)).toBeNull();
      await screenshot(page, `sso-saml-sign-in-cancelled-${language}`);
      expect(b.errors, [...b.errors, ...failed].join('\n')).toEqual([]);
    });
  }
});
