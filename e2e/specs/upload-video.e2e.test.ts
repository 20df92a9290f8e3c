import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { MESSAGES } from '@imaging-inbox/contract';
import { apiLogin, openExam, openGroup, signIn } from '../support/actions';
import { openBrowser, screenshot, type BrowserSession } from '../support/browser';
import { findStudies, instanceClasses } from '../support/studies';
import { chooseDestination } from '../support/upload-wizard';
import { fillPatientForm } from '../support/documents';

const baseUrl = inject('baseUrl');
const VIDEO_CLASS = '1.2.840.10008.5.1.4.1.1.77.1.4.1';

describe('upload wizard: an MP4 video wrapped into DICOM and played back', () => {
  let session: BrowserSession;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-video-'));
    session = await openBrowser(baseUrl);
    await signIn(session.page, 'clinician@demo.local');
    await session.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await session?.close();
    await rm(root, { recursive: true, force: true });
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(session.page, `failed-video-${ctx.task.name.replace(/\W+/g, '-')}`);
  });

  it('uploads an H.264 MP4 with patient details, then plays it from the Summary', async () => {
    const page = session.page;
    // A real H.264 clip from Debian's ffmpeg (scripts/system-deps.sh): 320×240, 25 fps, 2 s.
    const mp4 = path.join(root, 'knee-exercise.mp4');
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      mp4,
    ]);
    const mrn = `VIDEO-${Date.now()}`;

    await page.goto('/study/upload');
    await page.getByRole('button', { name: 'PDF, image or video files' }).click();
    await chooseDestination(page);
    const next = page.getByRole('button', { name: 'Next' });
    await page.getByLabel('PDF, image or video files').setInputFiles([mp4]);
    const listed = page.getByRole('list', { name: 'Files to upload' }).getByRole('listitem');
    await listed
      .filter({ hasText: 'knee-exercise.mp4' })
      // Under 1 MB, sizes are shown in KB.
      .getByText(/^\d+ KB$/)
      .waitFor();
    await next.click();

    await fillPatientForm(page, {
      firstName: 'Otto',
      lastName: 'Kinemann',
      birthDate: '1962-08-19',
      mrn,
      sex: 'Male',
      studyDate: '2026-06-02',
      studyDescription: 'Knee exercise video',
    });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();
    await page.getByText(MESSAGES.uploadMrnNote).waitFor();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText(MESSAGES.uploadDone).first().waitFor({ timeout: 60_000 });

    // The study landed: the form's patient, one Video Photographic instance.
    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const found = await findStudies(baseUrl, sid, { 'filter.patientid.like': mrn });
    expect(found).toHaveLength(1);
    const study = found[0]!;
    expect(study).toMatchObject({
      patient_name: 'Kinemann^Otto',
      patientid: mrn,
      patient_sex: 'M',
      study_description: 'Knee exercise video',
      modality: 'XC',
      image_count: 1,
    });
    expect(await instanceClasses(baseUrl, sid, String(study['study_uid']))).toEqual([VIDEO_CLASS]);

    // Open it from the Emergency inbox and play the video tile of the Summary.
    await page.goto('/group/list');
    await openGroup(page, 'Emergency');
    await page.waitForURL(/\/group\/[^/]+\/Inbox$/);
    const card = page.getByTestId('study-card').filter({ hasText: mrn }).first();
    await openExam(card);
    const panel = page.getByRole('complementary', { name: 'Exam details' });
    await panel.getByRole('tab', { name: 'Summary', selected: true }).waitFor();
    await panel.getByRole('button', { name: 'Play video knee-exercise.mp4' }).click();
    const video = page.getByRole('dialog').locator('video');
    await video.waitFor();
    await page.waitForFunction(
      () => {
        const v = document.querySelector<HTMLVideoElement>('[role="dialog"] video');
        return !!v && (v.readyState >= 1 || v.error !== null);
      },
      undefined,
      { timeout: 20_000 },
    );
    const state = await video.evaluate((v: HTMLVideoElement) => ({
      error: v.error?.code ?? null,
      duration: v.duration,
      width: v.videoWidth,
      height: v.videoHeight,
    }));
    expect(state.error).toBeNull();
    expect(state.duration).toBeGreaterThan(1.5);
    expect(state).toMatchObject({ width: 320, height: 240 });
    await screenshot(page, 'video-playing');
    expect(session.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
