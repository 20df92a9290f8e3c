import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Frame } from 'playwright-core';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { apiLogin, openExam, openGroup, signIn } from '../support/actions';

const baseUrl = inject('baseUrl');

interface Listed {
  studies: { uuid: string; patientid: string; phi_namespace: string; image_count: number }[];
}

/** A cheap fingerprint of the viewer canvas: how many pixels are not black, and a rolling sum. */
function canvasSignature(frame: Frame) {
  return frame.evaluate(() => {
    const canvas = document.getElementById('viewer-canvas') as HTMLCanvasElement;
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    let lit = 0;
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i]! > 8 || data[i + 1]! > 8 || data[i + 2]! > 8) lit += 1;
      sum = (sum * 31 + data[i]!) % 1_000_000_007;
    }
    return { lit, total: data.length / 4, sum };
  });
}

describe('embedded viewer', () => {
  let b: BrowserSession;
  let mrn = '';
  beforeAll(async () => {
    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const groups = (await (await fetch(`${baseUrl}/api/v3/group/list?sid=${sid}`)).json()) as {
      groups: { name: string; namespace_id: string }[];
    };
    const emergency = groups.groups.find((g) => g.name === 'Emergency')!;
    const listed = (await (
      await fetch(`${baseUrl}/api/v3/study/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          sid,
          'filter.modality.in': '["CT"]',
          'filter.phi_namespace.equals': emergency.namespace_id,
          'page.rows': '50',
        }).toString(),
      })
    ).json()) as Listed;
    const ct = listed.studies
      .filter((s) => s.image_count > 1)
      .sort((a, b) => b.image_count - a.image_count)[0];
    expect(ct, 'the demo world has a CT study in Emergency').toBeDefined();
    mrn = ct!.patientid;
    b = await openBrowser(baseUrl);
    await signIn(b.page, 'clinician@demo.local');
    await b.page.waitForURL('**/group/list');
    await openGroup(b.page, 'Emergency');
    await b.page.waitForURL(/\/group\/[^/]+\/Inbox$/);
  });
  afterAll(async () => {
    await b?.close();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(b.page, `failed-viewer-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  it('shows a CT, scrolls, changes window/level and closes back to Summary', async () => {
    const card = b.page.getByTestId('study-card').filter({ hasText: mrn }).first();
    await openExam(card);
    const panel = b.page.getByRole('complementary', { name: 'Exam details' });
    await panel.getByRole('tab', { name: 'Viewer' }).click();
    const iframe = panel.locator('iframe[title="Viewer"]');
    expect(await iframe.getAttribute('src')).toMatch(
      /^\/viewer\/(\?date_format=[^#]+)?#study\/[^/]+\/[^/]+\/[^/]+$/,
    );
    const frame = (await (await iframe.elementHandle()).contentFrame())!;
    await frame.waitForSelector('body[data-ready="1"]', { timeout: 15_000 });

    const first = await canvasSignature(frame);
    expect(first.lit / first.total).toBeGreaterThan(0.05);
    expect(await frame.locator('.series-item').count()).toBeGreaterThan(0);
    expect(await frame.locator('.corner.top-left').textContent()).toContain(mrn);
    await screenshot(b.page, 'viewer-first-image');

    // Full screen covers the whole window.
    await panel.getByRole('button', { name: 'Full screen' }).click();
    const box = await b.page.getByTestId('viewer-container').boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 1440, height: 900 });
    await screenshot(b.page, 'viewer-full-screen');

    // Open the series with the most images, then scroll one slice with the wheel: another image.
    const counts = await frame.locator('.series-item small').allTextContents();
    const biggest = counts
      .map((c) => parseInt(c, 10))
      .reduce((best, n, i, all) => (n > all[best]! ? i : best), 0);
    expect(parseInt(counts[biggest]!, 10)).toBeGreaterThan(1);
    await frame.locator('.series-item').nth(biggest).click();
    await frame.waitForFunction(() => Number(document.body.dataset['instancesTotal']) > 1);
    await frame.waitForFunction(() =>
      document.querySelector('.corner.bottom-left')?.textContent?.startsWith('Image 1/'),
    );
    const firstOfSeries = await canvasSignature(frame);
    const stage = frame.locator('.stage');
    await stage.hover();
    await b.page.mouse.wheel(0, 120);
    await frame.waitForFunction(() =>
      document.querySelector('.corner.bottom-left')?.textContent?.startsWith('Image 2/'),
    );
    const scrolled = await canvasSignature(frame);
    expect(scrolled.sum).not.toBe(firstOfSeries.sum);

    // Window/level by dragging: the same slice drawn differently.
    const area = (await stage.boundingBox())!;
    await b.page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
    await b.page.mouse.down();
    await b.page.mouse.move(area.x + area.width / 2 + 120, area.y + area.height / 2 + 80, { steps: 6 });
    await b.page.mouse.up();
    await frame.waitForFunction((before) => {
      const canvas = document.getElementById('viewer-canvas') as HTMLCanvasElement;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let sum = 0;
      for (let i = 0; i < data.length; i += 4) sum = (sum * 31 + data[i]!) % 1_000_000_007;
      return sum !== before;
    }, scrolled.sum);
    const windowed = await canvasSignature(frame);
    expect(windowed.sum).not.toBe(scrolled.sum);
    await screenshot(b.page, 'viewer-window-level');

    // The viewer's own close button returns the panel to Summary.
    await frame.getByRole('button', { name: 'Close' }).click();
    await panel.getByRole('tab', { name: 'Summary', selected: true }).waitFor();
    expect(await panel.locator('iframe[title="Viewer"]').count()).toBe(0);
    await screenshot(b.page, 'viewer-closed-summary');
    expect(b.errors).toEqual([]);
  });
});
