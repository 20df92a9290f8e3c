import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { apiPost } from '../support/actions';
import { SMALL_WINDOW, openBrowser, screenshot } from '../support/browser';
import { DEMO_PASSWORD } from '../support/server';

const baseUrl = inject('baseUrl');
// The viewer: enrolled here, and turned off again afterwards so later specs sign in with a password.
const LOGIN = 'viewer@demo.local';

/** RFC 4648 base32, as authenticator apps read the secret. */
function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of text.replace(/[\s=]/g, '').toUpperCase())
    bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** The code an authenticator app shows (RFC 6238: SHA-1, 6 digits, 30 s), `steps` steps from now. */
function totp(secret: string, steps = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + steps));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const TEXTS = {
  en: {
    setUp: 'Set up two-factor sign-in',
    code: 'Code from the app',
    turnOn: 'Turn on',
    verify: 'Verify',
    signIn: 'Sign in',
  },
  fr: {
    setUp: 'Configurer la connexion à deux facteurs',
    code: "Code de l'application",
    turnOn: 'Activer',
    verify: 'Vérifier',
    signIn: 'Se connecter',
  },
} as const;

/** Signs in with the password on a page already in `language`; stops at the code prompt. */
async function signInWithPassword(page: Page, language: 'en' | 'fr') {
  await page.goto('/');
  await page.locator('input[name="login"]').fill(LOGIN);
  await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: TEXTS[language].signIn }).click();
  await page.locator('input[name="otp"]').waitFor();
}

/** session/login through the api, with a code when codes are on; answers the sid. */
async function loginSid(otp?: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v3/session/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login: LOGIN, password: DEMO_PASSWORD, ...(otp ? { otp } : {}) }),
  });
  const body = (await res.json()) as { sid?: string };
  if (!body.sid) throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
  return body.sid;
}

describe('two-factor sign-in codes in the browser', () => {
  // The recovery codes of the codes a run left on: one signs in, the next turns them off.
  let recovery: string[] = [];
  async function turnOff(): Promise<string> {
    const sid = await loginSid(recovery[0]);
    if (recovery.length) {
      expect(await apiPost(baseUrl, 'user/totp/disable', { sid, otp: recovery[1]! })).toMatchObject({
        status: 'OK',
      });
      recovery = [];
    }
    return sid;
  }
  afterAll(async () => {
    // Codes off and the language back, so later specs sign the viewer in with a password.
    const sid = await turnOff();
    await apiPost(baseUrl, 'user/set', { sid, language: '' });
  });

  it.each(['en', 'fr'] as const)(
    'in %s: sets up codes from Security with the QR code, then signs in with a computed code',
    async (language) => {
      // The English run left codes on: turned off so this language sets them up again.
      const sid = await turnOff();
      await apiPost(baseUrl, 'user/set', { sid, language: language === 'en' ? '' : language });
      const b = await openBrowser(baseUrl);
      try {
        await b.page.setViewportSize(SMALL_WINDOW);
        await b.context.addInitScript((lang) => {
          if (lang !== 'en') localStorage.setItem('language', lang);
        }, language);
        // Codes off: the password alone signs in.
        await b.page.goto('/');
        await b.page.locator('input[name="login"]').fill(LOGIN);
        await b.page.locator('input[name="password"]').fill(DEMO_PASSWORD);
        await b.page.getByRole('button', { name: TEXTS[language].signIn }).click();
        await b.page.waitForURL('**/group/list');

        await b.page.goto('/account-settings?tab=security');
        await b.page.getByRole('button', { name: TEXTS[language].setUp }).click();
        const qr = b.page.locator('img[src^="data:image/svg+xml"]');
        await qr.waitFor();
        expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth > 0)).toBe(true);
        const secret = (await b.page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
        expect(secret).toMatch(/^[A-Z2-7]{32}$/);
        await screenshot(b.page, `two-factor-enrol-${language}`);
        await b.page.getByLabel(TEXTS[language].code).fill(totp(secret, -1));
        await b.page.getByRole('button', { name: TEXTS[language].turnOn }).click();
        const codes = b.page.getByTestId('recovery-codes').locator('li');
        await expect.poll(() => codes.count()).toBe(10);
        recovery = await codes.allTextContents();
        await screenshot(b.page, `two-factor-recovery-codes-${language}`);

        // Signed out, the password alone now asks for the code.
        await b.context.clearCookies();
        await b.page.evaluate(() => sessionStorage.clear());
        await signInWithPassword(b.page, language);
        await screenshot(b.page, `two-factor-code-prompt-${language}`);
        await b.page.locator('input[name="otp"]').fill(totp(secret));
        await b.page.getByRole('button', { name: TEXTS[language].verify }).click();
        await b.page.waitForURL('**/group/list');
        expect(b.errors).toEqual([]);
      } finally {
        await b.close();
      }
    },
  );
});
