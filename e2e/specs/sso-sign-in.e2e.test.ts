import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalIdentityProvider } from '../../apps/server/src/seed/demo-identity-provider';
import { startLocalIdentityProvider } from '../../apps/server/src/seed/demo-identity-provider';
import { apiLogin, apiPost } from '../support/actions';
import { SMALL_WINDOW, openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { ownServer } from '../support/server';

// A server of its own: the demo account's provider is set here, which no other spec expects.
const own = ownServer();
const ADMIN = 'admin@demo.local';
const USER = 'clinician@demo.local';
/** The clinician's password at the provider: not the inbox's demo password, which the flow never sees. */
const IDP_PASSWORD = 'Hospital-directory-pass-7';
/** Known at the provider, no member of the account (JIT off): the inbox refuses them. */
const OUTSIDER = 'outsider@demo.local';

const TEXTS = {
  en: {
    emailFirst: 'Enter your work e-mail address to sign in.',
    email: 'Email',
    continue: 'Continue',
    noAccount: 'Your identity provider signed you in, but you have no account here. Ask your administrator.',
    cancelled: 'Your identity provider did not sign you in: the sign-in was cancelled or refused there.',
    userMenu: 'User menu',
    logOut: 'Log out',
  },
  fr: {
    emailFirst: 'Saisissez votre adresse e-mail professionnelle pour vous connecter.',
    email: 'E-mail',
    continue: 'Continuer',
    noAccount:
      "Votre fournisseur d'identité vous a authentifié, mais vous n'avez pas de compte ici. Adressez-vous à votre administrateur.",
    cancelled:
      "Votre fournisseur d'identité ne vous a pas connecté : la connexion y a été annulée ou refusée.",
    userMenu: 'Menu utilisateur',
    logOut: 'Se déconnecter',
  },
} as const;
type Language = keyof typeof TEXTS;

/**
 * Sign-in through the account's OpenID Connect provider in the browser: a real `oidc-provider` in
 * this process with its own sign-in page, which checks the password; the inbox's sign-in page asks
 * for the e-mail, the provider signs the person in, the inbox opens; logout ends the session here
 * and at the provider. Refusals come back to the sign-in page in the page's language.
 */
describe('single sign-on through the hospital identity provider, in the browser', () => {
  let idp: LocalIdentityProvider;
  beforeAll(async () => {
    const base = own.baseUrl;
    idp = await startLocalIdentityProvider({
      clients: [
        {
          client_id: 'imaging-inbox-e2e',
          client_secret: 'e2e-client-secret-for-the-browser-test',
          redirect_uris: [`${base}/api/v3/session/sso/callback`],
          post_logout_redirect_uris: [`${base}/`],
        },
      ],
      users: [
        { login: USER, password: IDP_PASSWORD, email: USER, given_name: 'Claire', family_name: 'Clinician' },
        {
          login: OUTSIDER,
          password: IDP_PASSWORD,
          email: OUTSIDER,
          given_name: 'Otto',
          family_name: 'Outsider',
        },
      ],
    });
    const sid = await apiLogin(base, ADMIN);
    const { account_id: accountId } = await apiPost<{ account_id: string }>(base, 'session/user', { sid });
    const set = await apiPost<{ status: string }>(base, 'account/sso/set', {
      sid,
      account_id: accountId,
      type: 'oidc',
      enabled: '1',
      display_name: 'Hospital ID',
      issuer: idp.issuer,
      client_id: 'imaging-inbox-e2e',
      client_secret: 'e2e-client-secret-for-the-browser-test',
      scopes: 'openid email profile',
      domains: 'demo.local',
    });
    expect(set.status, JSON.stringify(set)).toBe('OK');
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

  /** The inbox's e-mail step, then on to the provider's own page. */
  async function toProvider(page: Page, language: Language, email: string, shot?: string) {
    await page.goto('/');
    await page.getByText(TEXTS[language].emailFirst).waitFor();
    await page.getByLabel(TEXTS[language].email).fill(email);
    if (shot) await screenshot(page, shot);
    await page.getByRole('button', { name: TEXTS[language].continue }).click();
    await page.waitForURL(`${idp.issuer}/interaction/**`);
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
    it(`in ${language}: the e-mail, the provider's page, the inbox; logout ends the session`, async () => {
      await inLanguage(language);
      const { page } = b;
      await toProvider(page, language, USER, `sso-sign-in-email-${language}`);
      await page.getByLabel('Password').waitFor();
      await screenshot(page, `sso-sign-in-provider-${language}`);
      await atProvider(page, USER, IDP_PASSWORD);
      await page.waitForURL('**/group/list');
      // The provider's landing went out of history: the address carries no sid.
      expect(page.url()).toBe(`${own.baseUrl}/group/list`);
      await page.getByRole('button', { name: TEXTS[language].userMenu }).waitFor();
      await screenshot(page, `sso-sign-in-landed-${language}`);
      const sid = await sidIn(page);
      expect(sid).toBeTruthy();
      expect(await sessionAnswer(sid!)).toMatchObject({ status: 'OK', email: USER });

      // Logout: the provider offers RP-initiated logout, so its page asks, then sends the browser back.
      await page.getByRole('button', { name: TEXTS[language].userMenu }).click();
      await page.getByRole('menuitem', { name: TEXTS[language].logOut }).click();
      await page.waitForURL(`${idp.issuer}/**`);
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await page.waitForURL(`${own.baseUrl}/`);
      await page.getByText(TEXTS[language].emailFirst).waitFor();
      expect(await sidIn(page)).toBeNull();
      // The local session is gone: the old sid is refused.
      expect((await sessionAnswer(sid!)).status).toBe('ERROR');
      expect(b.errors, [...b.errors, ...failed].join('\n')).toEqual([]);
    });
  }

  it('a wrong password at the provider leaves the person signed in nowhere', async () => {
    const { page } = b;
    await toProvider(page, 'en', USER);
    await atProvider(page, USER, 'not-the-password');
    await page.getByRole('alert').getByText('Wrong login or password.').waitFor();
    expect(page.url().startsWith(`${idp.issuer}/interaction/`)).toBe(true);
    // Nothing reached the inbox: no session in the app's tab, and its pages ask for sign-in.
    await page.goto('/group/list');
    await page.getByText(TEXTS.en.emailFirst).waitFor();
    expect(await sidIn(page)).toBeNull();
    expect(b.errors, [...b.errors, ...failed].join('\n')).toEqual([]);
  });

  for (const language of ['en', 'fr'] as const) {
    it(`in ${language}: a person the provider knows but the account does not, and a cancelled sign-in, are told why`, async () => {
      await inLanguage(language);
      const { page } = b;
      await toProvider(page, language, USER);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL(`${own.baseUrl}/?sso_error=provider_error`);
      await page.getByText(TEXTS[language].cancelled).waitFor();
      expect(await sidIn(page)).toBeNull();
      await screenshot(page, `sso-sign-in-cancelled-${language}`);

      // Signed in at the provider as someone the account does not know: refused here.
      await toProvider(page, language, OUTSIDER);
      await atProvider(page, OUTSIDER, IDP_PASSWORD);
      await page.waitForURL(`${own.baseUrl}/?sso_error=no_account`);
      await page.getByText(TEXTS[language].noAccount).waitFor();
      expect(await sidIn(page)).toBeNull();
      await screenshot(page, `sso-sign-in-no-account-${language}`);
      expect(b.errors, [...b.errors, ...failed].join('\n')).toEqual([]);
    });
  }
});
