import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from 'playwright-core';
import { openBrowser, screenshot, SMALL_WINDOW, type BrowserSession } from '../support/browser';
import { apiGet, apiLogin, apiPost, signIn } from '../support/actions';
import { ownServer } from '../support/server';

// A server of its own: the share below adds a study to Teaching Files, which other specs list, and
// the admin's language is changed to French.
const own = ownServer();
const ADMIN = 'admin@demo.local';

interface ListedStudy {
  uuid: string;
  patient_name: string;
  patientid: string;
  phi_namespace: string;
}

const TEXTS = {
  en: { viewer: 'Viewer', panel: 'Exam details', name: 'Patient name' },
  fr: { viewer: 'Visionneuse', panel: "Détails de l'examen", name: 'Nom du patient' },
} as const;

/**
 * Teaching Files de-identifies what is shared into it (issue 33): the patient's name and MRN are
 * not on its screen, anywhere in the viewer's page (overlays, series list, attributes included), nor
 * in any file of the ZIP a user downloads from it, read as bytes and decoded by dcmdump.
 */
describe('Teaching Files', () => {
  let b: BrowserSession;
  let sid = '';
  let shared: ListedStudy | undefined;
  let copy: ListedStudy | undefined;
  /** What must never show: the patient's MRN, whole name and each part of it of 4+ characters. */
  let originals: string[] = [];

  beforeAll(async () => {
    b = await openBrowser(own.baseUrl);
    await b.page.setViewportSize(SMALL_WINDOW);
    sid = await apiLogin(own.baseUrl, ADMIN);
  });
  afterAll(async () => {
    await apiPost(own.baseUrl, 'user/set', { sid: await apiLogin(own.baseUrl, ADMIN), language: '' });
    await b?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(b.page, `failed-teaching-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  const panel = (language: 'en' | 'fr' = 'en') =>
    b.page.getByRole('complementary', { name: TEXTS[language].panel });
  /** Every occurrence of an original value in a text (case as stored, which is how a leak reads). */
  const leaked = (text: string) => originals.filter((value) => text.includes(value));

  /** Opens Teaching Files, finds the copy by its pseudonym and opens its exam panel. */
  async function openCopy(language: 'en' | 'fr') {
    await b.page.goto('/group/list');
    await b.page
      .getByRole('navigation')
      .first()
      .getByRole('button', { name: 'Teaching Files', exact: true })
      .click();
    await b.page.getByTestId('study-card').first().waitFor();
    // The copy has no study date (the profile empties it): search it by its pseudonym.
    await b.page.getByRole('textbox', { name: TEXTS[language].name }).fill('ANONYMOUS');
    await b.page.keyboard.press('Enter');
    const card = b.page.getByTestId('study-card').filter({ hasText: copy!.patientid }).first();
    await card.waitFor();
    await card.getByRole('button', { name: /^(Open|Ouvrir) / }).click();
  }

  /** The viewer of the open exam, once it drew its first image. */
  async function openViewer(language: 'en' | 'fr'): Promise<Frame> {
    await panel(language).getByRole('tab', { name: TEXTS[language].viewer }).click();
    const iframe = panel(language).locator(`iframe[title="${TEXTS[language].viewer}"]`);
    const frame = (await (await iframe.elementHandle()).contentFrame())!;
    await frame.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
    await frame.waitForFunction(
      (mrn) => document.querySelector('.corner.top-left')?.textContent?.includes(mrn),
      copy!.patientid,
    );
    return frame;
  }

  it('shows a study shared into it without the patient name or MRN', async () => {
    const baseUrl = own.baseUrl;
    const { groups } = await apiPost<{ groups: { uuid: string; name: string; namespace_id: string }[] }>(
      baseUrl,
      'group/list',
      { sid },
    );
    const emergency = groups.find((g) => g.name === 'Emergency')!;
    const teaching = groups.find((g) => g.name === 'Teaching Files')!;
    const listed = async (namespace: string) =>
      (
        await apiGet<{ studies: ListedStudy[] }>(baseUrl, 'study/list', {
          sid,
          'filter.phi_namespace.equals': namespace,
          'page.rows': '100',
        })
      ).studies;
    const before = new Set((await listed(teaching.namespace_id)).map((s) => s.uuid));
    // The first Emergency study the group takes (studies with burned-in text are refused).
    for (const study of await listed(emergency.namespace_id)) {
      const response = await fetch(`${baseUrl}/api/v3/study/share`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sid, uuid: study.uuid, group_id: teaching.uuid }),
      });
      if (response.status === 200) {
        shared = study;
        break;
      }
    }
    expect(shared).toBeDefined();
    copy = (await listed(teaching.namespace_id)).find((s) => !before.has(s.uuid));
    expect(copy, 'the share made a copy in Teaching Files').toBeDefined();
    expect(copy!.patientid).toMatch(/^ANON[0-9A-F]{12}$/);
    originals = [
      shared!.patientid,
      shared!.patient_name,
      ...shared!.patient_name.split('^').filter((part) => part.length >= 4),
    ];
    expect(originals.length).toBeGreaterThanOrEqual(3);

    await signIn(b.page, ADMIN);
    await b.page.waitForURL('**/group/list');
    await openCopy('en');
    await panel().getByRole('tab', { name: 'Summary', selected: true }).waitFor();
    const text = (await b.page.locator('body').textContent()) ?? '';
    expect(text).toContain('ANONYMOUS');
    expect(leaked(text)).toEqual([]);
    expect(leaked(await b.page.content())).toEqual([]);
    await screenshot(b.page, 'teaching-files-deidentified');
  });

  it('opens the copy in the viewer with neither the name nor the MRN anywhere in it, in English and French', async () => {
    expect(copy).toBeDefined();
    for (const language of ['en', 'fr'] as const) {
      if (language === 'fr') {
        await apiPost(own.baseUrl, 'user/set', { sid, language: 'fr' });
        await openCopy('fr');
      }
      const frame = await openViewer(language);
      // The overlays say whose images these are: the pseudonym only.
      const overlay = await frame.locator('.corner').allTextContents();
      expect(overlay.join('\n')).toContain(`ID ${copy!.patientid}`);
      // Every series the viewer lists, one after the other, so each one's overlay is read too.
      const series = await frame.locator('.series-item').count();
      expect(series).toBeGreaterThan(0);
      for (let i = 0; i < series; i++) {
        const item = frame.locator('.series-item').nth(i);
        if ((await item.getAttribute('aria-current')) !== 'true') {
          // Drawn again once this series' first image is on screen.
          await frame.evaluate(() => delete document.body.dataset['ready']);
          await item.click();
          await frame.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });
        }
        expect(leaked(await frame.content()), `series ${i + 1}`).toEqual([]);
      }
      // The viewer's whole page (its DOM as HTML: text, attributes, titles) and the inbox around it.
      expect(leaked(await frame.locator('body').innerText())).toEqual([]);
      expect(leaked(await frame.content())).toEqual([]);
      expect(leaked(await b.page.content())).toEqual([]);
      await screenshot(b.page, `teaching-files-viewer-${language}`);
    }
    expect(b.errors, b.errors.join('\n')).toEqual([]);
  });

  it('downloads the copy as a ZIP whose every file carries neither the name nor the MRN', async () => {
    expect(copy).toBeDefined();
    await apiPost(own.baseUrl, 'user/set', { sid, language: '' });
    await openCopy('en');
    await panel().getByRole('tab', { name: 'Downloads' }).click();
    await panel().getByLabel('All series').waitFor();
    const [download] = await Promise.all([
      b.page.waitForEvent('download'),
      panel().getByRole('button', { name: 'Download', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    await b.page.getByText('Download complete').first().waitFor();
    const zip = await download.path();

    const work = await mkdtemp(path.join(tmpdir(), 'e2e-teaching-zip-'));
    try {
      const names = execFileSync('unzip', ['-Z1', zip]).toString().split('\n').filter(Boolean);
      const dicom = names.filter((name) => name === 'DICOMDIR' || name.startsWith('DICOM/'));
      expect(dicom).toContain('DICOMDIR');
      expect(dicom.length).toBeGreaterThan(1);
      for (const [i, name] of names.entries()) {
        const bytes = execFileSync('unzip', ['-p', zip, name], { maxBuffer: 256 * 1024 * 1024 });
        // The raw bytes, as latin1 (DICOM's default repertoire) and as UTF-8.
        expect(leaked(bytes.toString('latin1')), `${name} bytes`).toEqual([]);
        expect(leaked(bytes.toString('utf8')), `${name} bytes`).toEqual([]);
        if (!dicom.includes(name)) continue;
        // Decoded: every element at every depth, long values whole, in UTF-8.
        const file = path.join(work, `${i}.dcm`);
        await writeFile(file, bytes);
        const dump = execFileSync('dcmdump', ['+L', '+U8', file], { maxBuffer: 64 * 1024 * 1024 }).toString();
        expect(leaked(dump), `${name} decoded`).toEqual([]);
        if (name === 'DICOMDIR') {
          expect(dump).toContain(copy!.patientid);
          continue;
        }
        expect(dump).toMatch(/\(0012,0062\) CS \[YES\]/);
        expect(dump).toContain(`(0010,0020) LO [${copy!.patientid}]`);
      }
      expect((await readFile(zip)).subarray(0, 2).toString('latin1')).toBe('PK');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
