import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MESSAGES } from '@imaging-inbox/contract';
import { generateStudySpecs, writeStudyFiles } from '../../apps/server/dist/dicom/index.js';
import { apiLogin } from '../support/actions';
import { addUploadLink, groupNamespaceId } from '../support/links';
import { findStudies, instanceClasses } from '../support/studies';
import { openBrowser, type BrowserSession } from '../support/browser';
import { fillPatientForm, onePagePdf } from '../support/documents';
import { mailedLinkPath } from '../support/mail';

const baseUrl = inject('baseUrl');
const PDF_CLASS = '1.2.840.10008.5.1.4.1.1.104.1';

describe('request link: an outside party sends a PDF with the patient form beside a DICOM file', () => {
  let outsider: BrowserSession | undefined;
  let dir: string;
  let sid: string;
  let emergency: string;
  const email = `documents-${Date.now()}@clinic.example`;
  const mrn = `LINKDOC-${Date.now()}`;
  const [spec] = generateStudySpecs(1, 47011, { now: new Date('2026-06-01T00:00:00Z') });
  const dicom = writeStudyFiles(spec!)[0]!;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-link-docs-'));
    await writeFile(path.join(dir, 'referral-letter.pdf'), onePagePdf());
    await writeFile(path.join(dir, 'IM1.dcm'), dicom.bytes);
    sid = await apiLogin(baseUrl, 'clinician@demo.local');
    emergency = await groupNamespaceId(baseUrl, sid, 'Emergency');
    await addUploadLink(baseUrl, sid, {
      namespaceId: emergency,
      email,
      maxHits: 1,
      message: 'Referral letter and the prior CT, please',
    });
  });
  afterAll(async () => {
    await outsider?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes the PDF with the patient form (refusing a future date) and the DICOM file the DICOM way', async () => {
    outsider = await openBrowser(baseUrl);
    const page = outsider.page;
    await page.goto(await mailedLinkPath(baseUrl, email));
    await page.getByText('Referral letter and the prior CT, please').waitFor();
    await page
      .getByLabel('DICOM files', { exact: true })
      .setInputFiles([path.join(dir, 'referral-letter.pdf'), path.join(dir, 'IM1.dcm')]);

    // The DICOM file is found as an exam; the PDF is a document, not an "other file".
    await page.getByText(/1 exams? found in 1 files/).waitFor();
    const documents = page.getByRole('region', { name: 'Documents' });
    await documents.getByText('referral-letter.pdf').waitFor();
    expect(await page.getByText(/other files are not sent/).count()).toBe(0);

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText(MESSAGES.linkUploadDone).waitFor();

    await fillPatientForm(
      page,
      {
        firstName: 'Ingrid',
        lastName: 'Halvorsen',
        birthDate: '1975-11-20',
        mrn,
        sex: 'Female',
        studyDate: '2999-01-01',
      },
      documents,
    );
    const send = documents.getByRole('button', { name: 'Upload documents' });
    await send.click();
    await documents.getByText(MESSAGES.formStudyDateFuture).waitFor();
    await documents.getByText(MESSAGES.formMandatory).waitFor();
    expect(await documents.getByText(MESSAGES.linkDocumentsDone).count()).toBe(0);

    await documents.getByLabel(/^Study Date/).fill('2026-03-14');
    await documents.getByLabel(/^Study Description/).fill('Referral letter');
    await send.click();
    await documents.getByText(MESSAGES.linkDocumentsDone).waitFor({ timeout: 60_000 });
    expect(outsider.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it('shows the requester both exams in the link group, the document one as an Encapsulated PDF', async () => {
    const found = await findStudies(baseUrl, sid, {
      'filter.patientid.like': mrn,
      'filter.phi_namespace.equals': emergency,
    });
    expect(found).toHaveLength(1);
    const study = found[0]!;
    expect(study).toMatchObject({
      patient_name: 'Halvorsen^Ingrid',
      patientid: mrn,
      patient_sex: 'F',
      study_date: '20260314',
      study_description: 'Referral letter',
      image_count: 1,
      source_ae_title: 'LINK',
    });
    expect(await instanceClasses(baseUrl, sid, String(study['study_uid']))).toEqual([PDF_CLASS]);

    const dicomStudy = await findStudies(baseUrl, sid, {
      'filter.study_uid.equals': spec!.studyInstanceUid,
      'filter.phi_namespace.equals': emergency,
    });
    expect(dicomStudy).toHaveLength(1);
    expect(dicomStudy[0]).toMatchObject({ image_count: 1, source_ae_title: 'LINK' });

    // Both went through one grant: one hit of a one-hit link, which is now used up.
    const info = await fetch(
      `${baseUrl}/api/v3/link/public/info?token=${(await mailedLinkPath(baseUrl, email)).split('/').pop()}`,
    );
    expect(((await info.json()) as { error_type?: string }).error_type).toBe('NO_LINK_ERROR');
  });
});
