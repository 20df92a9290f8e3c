import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MESSAGES } from '@imaging-inbox/contract';
import { encodePng } from '../../apps/server/dist/imaging/png.js';
import { apiLogin, signIn } from '../support/actions';
import { openBrowser, type BrowserSession } from '../support/browser';
import { fillPatientForm, onePagePdf } from '../support/documents';
import { findStudies, instanceClasses } from '../support/studies';

const baseUrl = inject('baseUrl');
const PDF_CLASS = '1.2.840.10008.5.1.4.1.1.104.1';
const SC_CLASS = '1.2.840.10008.5.1.4.1.1.7';

describe('upload wizard: PDF and image files wrapped into DICOM', () => {
  let session: BrowserSession;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-wrap-'));
    session = await openBrowser(baseUrl);
    await signIn(session.page, 'clinician@demo.local');
    await session.page.waitForURL('**/group/list');
  });
  afterAll(async () => {
    await session?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('refuses bad patient details, then uploads a PDF and a PNG as one new study', async () => {
    const page = session.page;
    const pdf = path.join(root, 'outside-report.pdf');
    const png = path.join(root, 'wound-photo.png');
    await writeFile(pdf, onePagePdf());
    const pixels = new Uint8Array(32 * 24 * 3).map((_, i) => (i * 5) % 256);
    await writeFile(png, encodePng({ width: 32, height: 24, channels: 3, data: pixels }));
    const mrn = `WRAP-${Date.now()}`;

    await page.goto('/study/upload');
    await page.getByRole('button', { name: 'PDF, image or video files' }).click();
    await page.getByRole('combobox', { name: 'Destination' }).click();
    await page.getByRole('option', { name: 'Emergency' }).click();
    const next = page.getByRole('button', { name: 'Next' });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();

    expect(await next.isEnabled()).toBe(false);
    await page.getByLabel('PDF, image or video files').setInputFiles([pdf, png]);
    await page.getByText('outside-report.pdf').waitFor();
    await next.click();

    // Bad input first: a submit attempt on the empty form, a birth date ahead of today, a bad time.
    expect(await next.isEnabled()).toBe(false);
    await page.getByLabel(/^First name/).press('Enter');
    await page.getByText(MESSAGES.formMandatory).waitFor();
    await page.getByLabel(/^Date of Birth/).fill('2999-01-01');
    await page.getByText(MESSAGES.formDobFuture).waitFor();
    await page.getByLabel(/^Study Time/).fill('25:61');
    await page.getByText(MESSAGES.formTimeFormat).waitFor();
    await page.getByLabel(/^Date of Birth/).fill('1984-03-07');
    await page.getByLabel(/^Study Date/).fill('1980-01-01');
    await page.getByText(MESSAGES.formStudyBeforeBirth).waitFor();
    expect(await next.isEnabled()).toBe(false);

    await fillPatientForm(page, {
      firstName: 'Ann',
      lastName: 'Lee',
      mrn,
      sex: 'Female',
      studyDate: '2026-05-04',
      studyTime: '14:05',
      studyDescription: 'Outside report',
    });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();

    await page.getByText(MESSAGES.uploadMrnNote).waitFor();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText(MESSAGES.uploadDone).first().waitFor({ timeout: 60_000 });

    // The new study: the form's patient, both files, the PDF as Encapsulated PDF.
    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const found = await findStudies(baseUrl, sid, { 'filter.patientid.like': mrn });
    expect(found).toHaveLength(1);
    const study = found[0]!;
    expect(study).toMatchObject({
      patient_name: 'Lee^Ann',
      patientid: mrn,
      patient_sex: 'F',
      patient_birth_date: '19840307',
      study_date: '20260504',
      study_description: 'Outside report',
      image_count: 2,
    });
    expect(String(study['study_uid'])).toMatch(/^2\.25\.\d+$/);
    expect((await instanceClasses(baseUrl, sid, String(study['study_uid']))).sort()).toEqual([
      PDF_CLASS,
      SC_CLASS,
    ]);
    expect(session.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it('takes the PDF inside a picked ZIP, as the request-link page does, and leaves the rest out', async () => {
    const page = session.page;
    const tree = path.join(root, 'zip-tree');
    await mkdir(path.join(tree, 'letters'), { recursive: true });
    await mkdir(path.join(tree, 'CT'));
    await writeFile(path.join(tree, 'letters', 'discharge-summary.pdf'), onePagePdf());
    await copyFile(
      '/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm',
      path.join(tree, 'CT', 'IM1'),
    );
    const zip = path.join(root, 'from-clinic.zip');
    execFileSync('zip', ['-q', '-r', zip, '.'], { cwd: tree });
    const mrn = `WRAPZIP-${Date.now()}`;

    // The DICOM upload finds the CT in the ZIP and points to the other upload kind for the PDF.
    await page.goto('/study/upload');
    await page.getByRole('combobox', { name: 'Destination' }).click();
    await page.getByRole('option', { name: 'Emergency' }).click();
    const next = page.getByRole('button', { name: 'Next' });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();
    await page.getByLabel('DICOM files', { exact: true }).setInputFiles(zip);
    await page.getByText(/1 exams? found in 1 files?/).waitFor();
    await page.getByText('1 PDF, image or video file is not DICOM', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'PDF, image or video files' }).click();
    await page.getByRole('combobox', { name: 'Destination' }).click();
    await page.getByRole('option', { name: 'Emergency' }).click();
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();

    await page.getByLabel('PDF, image or video files').setInputFiles(zip);
    await page.getByText('from-clinic.zip/letters/discharge-summary.pdf').waitFor();
    // The DICOM file in the ZIP is not a document: said, and left out.
    await page.getByText(MESSAGES.wrapFileTypes).waitFor();
    await next.click();

    await fillPatientForm(page, {
      firstName: 'Per',
      lastName: 'Moe',
      birthDate: '1959-12-24',
      mrn,
      sex: 'Male',
      studyDate: '2026-04-30',
      studyDescription: 'Discharge summary',
    });
    await expect.poll(() => next.isEnabled()).toBe(true);
    await next.click();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText(MESSAGES.uploadDone).first().waitFor({ timeout: 60_000 });

    const sid = await apiLogin(baseUrl, 'clinician@demo.local');
    const found = await findStudies(baseUrl, sid, { 'filter.patientid.like': mrn });
    expect(found).toHaveLength(1);
    const study = found[0]!;
    expect(study).toMatchObject({ patient_name: 'Moe^Per', image_count: 1 });
    const series = await fetch(
      `${baseUrl}/dicomweb/studies/${String(study['study_uid'])}/series?includefield=0008103E`,
      { headers: { Authorization: `Bearer ${sid}`, Accept: 'application/dicom+json' } },
    );
    const described = (await series.json()) as Record<string, { Value?: string[] }>[];
    expect(described.map((s) => [s['00080060']?.Value?.[0], s['0008103E']?.Value?.[0]])).toEqual([
      ['DOC', 'discharge-summary.pdf'],
    ]);
    expect(session.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
