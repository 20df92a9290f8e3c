import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, apiPost, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');
const LOGIN = 'clinician@demo.local';

/** Texts of each screen in each language: the inbox, a study's details, the upload page, settings. */
const SCREENS = {
  fr: {
    userMenu: 'Menu utilisateur',
    settings: 'Paramètres du compte',
    language: 'Langue',
    inbox: 'Boîte de réception',
    deleted: 'Éléments supprimés',
    upload: 'Téléverser des examens',
    details: "Détails de l'examen",
    summary: 'Résumé',
    demographics: 'Données démographiques du patient',
    destination: 'Destination',
    firstName: 'Prénom',
    save: 'Enregistrer',
  },
  es: {
    userMenu: 'Menú de usuario',
    settings: 'Configuración de la cuenta',
    language: 'Idioma',
    inbox: 'Bandeja de entrada',
    deleted: 'Elementos eliminados',
    upload: 'Cargar estudios',
    details: 'Detalles del estudio',
    summary: 'Resumen',
    demographics: 'Datos demográficos del paciente',
    destination: 'Destino',
    firstName: 'Nombre',
    save: 'Guardar',
  },
} as const;

type Texts = (typeof SCREENS)[keyof typeof SCREENS];

async function openSettings(page: Page, texts: { userMenu: string; settings: string }) {
  await page.getByRole('button', { name: texts.userMenu }).click();
  await page.getByRole('menuitem', { name: texts.settings }).click();
  await page.waitForURL('**/account-settings');
}

/** Walks the inbox, a study's details, the upload page and the settings, checking and picturing each. */
async function visitScreens(page: Page, language: string, texts: Texts) {
  await page.goto('/group/list');
  const cardiology = page.getByRole('button', { name: 'Cardiology' });
  // The menu may keep the group open from an earlier visit; a click would close it again.
  if ((await cardiology.getAttribute('aria-expanded')) !== 'true') await cardiology.click();
  const states = page.getByRole('list', { name: /Cardiology/ });
  await states.getByRole('link', { name: texts.inbox }).waitFor();
  await states.getByRole('link', { name: texts.deleted }).waitFor();
  await page.getByTestId('study-card').first().waitFor();
  await screenshot(page, `language-${language}-inbox`);

  await page.getByTestId('study-card').first().getByRole('button').first().click();
  const panel = page.getByRole('complementary', { name: texts.details });
  await panel.getByRole('tab', { name: texts.summary }).waitFor();
  await panel.getByText(texts.demographics).waitFor();
  await screenshot(page, `language-${language}-study`);

  await page.getByRole('button', { name: texts.upload }).first().click();
  await page.waitForURL('**/study/upload');
  await page.getByRole('combobox', { name: texts.destination }).waitFor();
  await screenshot(page, `language-${language}-upload`);

  await page.goto('/group/list');
  await openSettings(page, texts);
  await page.getByLabel(texts.firstName).waitFor();
  await page.getByRole('button', { name: texts.save }).waitFor();
  await screenshot(page, `language-${language}-settings`);
}

describe('language', () => {
  let b: BrowserSession;
  beforeEach(async () => {
    b = await openBrowser(baseUrl);
    await b.page.setViewportSize({ width: 1280, height: 800 });
  });
  afterEach(async () => {
    await b.close();
  });
  afterAll(async () => {
    const sid = await apiLogin(baseUrl, LOGIN);
    await apiPost(baseUrl, 'user/set', { sid, language: '' });
  });

  it('picks Français in the profile, keeps it across a reload and on another browser, and switches back', async () => {
    await signIn(b.page, LOGIN);
    await b.page.waitForURL('**/group/list');
    await openSettings(b.page, { userMenu: 'User menu', settings: 'Account settings' });
    await b.page.getByLabel('Language').selectOption('fr');
    // The page follows at once, without Save or a reload.
    await b.page.getByLabel('Prénom').waitFor();
    expect(await b.page.evaluate(() => document.documentElement.lang)).toBe('fr');

    await visitScreens(b.page, 'fr', SCREENS.fr);

    await b.page.reload();
    await b.page.getByLabel('Prénom').waitFor();
    expect(await b.page.getByLabel('Langue').inputValue()).toBe('fr');

    // Another browser (nothing on the device yet) gets French from the user's profile once signed in.
    const other = await openBrowser(baseUrl);
    try {
      await signIn(other.page, LOGIN);
      await other.page.waitForURL('**/group/list');
      await other.page.getByRole('button', { name: 'Téléverser des examens' }).waitFor();
    } finally {
      await other.close();
    }

    await b.page.getByLabel('Langue').selectOption('es');
    await b.page.getByLabel('Idioma').waitFor();
    await visitScreens(b.page, 'es', SCREENS.es);

    await b.page.getByLabel('Idioma').selectOption('en');
    await b.page.getByLabel('First name').waitFor();
    await b.page.reload();
    await b.page.getByLabel('First name').waitFor();
    expect(await b.page.getByLabel('Language').inputValue()).toBe('en');
    expect(b.errors).toEqual([]);
  });

  it('shows the sign-in page in the language last chosen on this device', async () => {
    await b.page.goto('/');
    await b.page.evaluate(() => localStorage.setItem('language', 'es'));
    await b.page.reload();
    await b.page.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
    await screenshot(b.page, 'language-es-sign-in');
  });
});
