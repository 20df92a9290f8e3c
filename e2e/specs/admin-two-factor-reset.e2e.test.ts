import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiLogin, apiPost, signIn } from '../support/actions';
import { SMALL_WINDOW, openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { DEMO_PASSWORD, ownServer } from '../support/server';

// A server of its own: the clinician's codes are turned on and reset here.
const own = ownServer();
const ADMIN = 'admin@demo.local';
const MEMBER = 'clinician@demo.local';

/** RFC 6238 code (SHA-1, 6 digits, 30 s) of a base32 secret, as an authenticator app computes it. */
function totp(secret: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...secret].map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0')).join('');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const TEXTS = {
  en: {
    search: 'Search users',
    edit: 'Edit Claire Clinician',
    reset: 'Reset two-factor sign-in',
    confirm: 'Reset',
    done: 'Two-factor sign-in of Claire Clinician was reset.',
  },
  fr: {
    search: 'Rechercher des utilisateurs',
    edit: 'Modifier Claire Clinician',
    reset: 'Réinitialiser la connexion à deux facteurs',
    confirm: 'Réinitialiser',
    done: 'La connexion à deux facteurs de Claire Clinician a été réinitialisée.',
  },
} as const;

/** Administration → Users: an admin resets a member's two-factor codes after a lost phone. */
describe("administration: resetting a member's two-factor sign-in", () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(own.baseUrl);
    await b.page.setViewportSize(SMALL_WINDOW);
  });
  afterEach(() => b?.close());

  for (const language of ['en', 'fr'] as const) {
    it(`in ${language}: the button asks first, then the member signs in with the password alone`, async () => {
      const base = own.baseUrl;
      const texts = TEXTS[language];
      // The member turns codes on (their phone), then loses it.
      const member = await apiLogin(base, MEMBER);
      const started = await apiPost<{ secret: string }>(base, 'user/totp/enrol', { sid: member });
      const confirmed = await apiPost<{ status: string }>(base, 'user/totp/confirm', {
        sid: member,
        otp: totp(started.secret),
      });
      expect(confirmed.status).toBe('OK');
      const due = await apiPost<{ error_type?: string }>(base, 'session/login', {
        login: MEMBER,
        password: DEMO_PASSWORD,
      });
      expect(due.error_type).toBe('MFA_REQUIRED');

      const admin = await apiLogin(base, ADMIN);
      await apiPost(base, 'user/set', { sid: admin, language: language === 'en' ? '' : language });
      await signIn(b.page, ADMIN);
      await b.page.waitForURL('**/group/list');
      await b.page.goto('/organization/users.html');
      await b.page.getByLabel(texts.search).fill('clinician');
      await b.page.getByRole('button', { name: texts.edit }).click();
      const dialog = b.page.getByRole('dialog');
      await dialog.getByRole('button', { name: texts.reset }).click();
      const question = b.page.getByRole('dialog').filter({ hasText: /Claire Clinician\s?\?/ });
      await question.waitFor();
      await screenshot(b.page, `admin-two-factor-reset-${language}`);
      await question.getByRole('button', { name: texts.confirm, exact: true }).click();
      await b.page.getByText(texts.done).waitFor();
      await screenshot(b.page, `admin-two-factor-reset-done-${language}`);

      const after = await apiPost<{ sid?: string }>(base, 'session/login', {
        login: MEMBER,
        password: DEMO_PASSWORD,
      });
      expect(after.sid).toBeTruthy();
      expect(b.errors, b.errors.join('\n')).toEqual([]);
    });
  }
});
