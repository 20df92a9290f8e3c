import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiGet, apiLogin, apiPost, signIn } from '../support/actions';
import { ownServer } from '../support/server';

// A server of its own: the share below adds a study to Teaching Files, which other specs list.
const own = ownServer();
const ADMIN = 'admin@demo.local';

interface ListedStudy {
  uuid: string;
  patient_name: string;
  patientid: string;
  phi_namespace: string;
}

/** Teaching Files de-identifies what is shared into it: the patient's name and MRN never show there. */
describe('Teaching Files', () => {
  let b: BrowserSession;
  beforeAll(async () => {
    b = await openBrowser(own.baseUrl);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('shows a study shared into it without the patient name or MRN', async () => {
    const baseUrl = own.baseUrl;
    const sid = await apiLogin(baseUrl, ADMIN);
    const { groups } = await apiPost<{ groups: { uuid: string; name: string; namespace_id: string }[] }>(
      baseUrl,
      'group/list',
      { sid },
    );
    const emergency = groups.find((g) => g.name === 'Emergency')!;
    const teaching = groups.find((g) => g.name === 'Teaching Files')!;
    const { studies } = await apiGet<{ studies: ListedStudy[] }>(baseUrl, 'study/list', {
      sid,
      'page.rows': '100',
    });
    // The first Emergency study the group takes (studies with burned-in text are refused).
    let shared: ListedStudy | undefined;
    for (const study of studies.filter((s) => s.phi_namespace === emergency.namespace_id)) {
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
    const family = shared!.patient_name.split('^')[0]!;

    await signIn(b.page, ADMIN);
    await b.page.waitForURL('**/group/list');
    await b.page
      .getByRole('navigation')
      .first()
      .getByRole('button', { name: 'Teaching Files', exact: true })
      .click();
    await b.page.getByTestId('study-card').first().waitFor();
    // The copy has no study date (the profile empties it): search it by its pseudonym.
    await b.page.getByRole('textbox', { name: 'Patient name' }).fill('ANONYMOUS');
    await b.page.keyboard.press('Enter');
    await b.page.getByTestId('study-card').filter({ hasText: 'ANONYMOUS' }).first().waitFor();
    const text = (await b.page.locator('body').textContent()) ?? '';
    expect(text).toContain('ANONYMOUS');
    expect(text).not.toContain(family);
    expect(text).not.toContain(shared!.patientid);
    await screenshot(b.page, 'teaching-files-deidentified');
  });
});
