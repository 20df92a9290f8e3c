import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

describe('request link: a ZIP holding a DICOM file and a PDF lands both in the link group', () => {
  let outsider: BrowserSession | undefined;
  let dir: string;
  let sid: string;
  let emergency: string;
  const email = `zip-documents-${Date.now()}@clinic.example`;
  const mrn = `LINKZIPDOC-${Date.now()}`;
  const [spec] = generateStudySpecs(1, 47023, { now: new Date('2026-06-01T00:00:00Z') });
  const dicom = writeStudyFiles(spec!)[0]!;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-link-zip-docs-'));
    const tree = path.join(dir, 'tree');
    await mkdir(path.join(tree, 'CT'), { recursive: true });
    await mkdir(path.join(tree, 'letters'));
    await writeFile(path.join(tree, 'CT', 'IM1.dcm'), dicom.bytes);
    await writeFile(path.join(tree, 'letters', 'referral-letter.pdf'), onePagePdf());
    // Info-ZIP deflates both: the page inflates the PDF only when it sends it.
    execFileSync('zip', ['-q', '-r', path.join(dir, 'exams.zip'), '.'], { cwd: tree });
    sid = await apiLogin(baseUrl, 'clinician@demo.local');
    emergency = await groupNamespaceId(baseUrl, sid, 'Emergency');
    await addUploadLink(baseUrl, sid, {
      namespaceId: emergency,
      email,
      maxHits: 1,
      message: 'The CT and the referral, zipped is fine',
    });
  });
  afterAll(async () => {
    await outsider?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('offers the PDF inside the ZIP with the patient form and sends the DICOM file the DICOM way', async () => {
    outsider = await openBrowser(baseUrl);
    const page = outsider.page;
    await page.goto(await mailedLinkPath(baseUrl, email));
    await page.getByText('The CT and the referral, zipped is fine').waitFor();
    await page.getByLabel('DICOM files', { exact: true }).setInputFiles(path.join(dir, 'exams.zip'));

    // The DICOM entry is an exam; the PDF entry is a document, neither an "other file" nor sent as DICOM.
    await page.getByText(/1 exams? found in 1 files?/).waitFor();
    const documents = page.getByRole('region', { name: 'Documents' });
    await documents.getByText('exams.zip/letters/referral-letter.pdf').waitFor();
    expect(await page.getByText(/other files? (is|are) not sent/).count()).toBe(0);

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText(MESSAGES.linkUploadDone).waitFor();

    await fillPatientForm(
      page,
      {
        firstName: 'Sigrid',
        lastName: 'Lunde',
        birthDate: '1968-04-09',
        mrn,
        sex: 'Female',
        studyDate: '2026-05-20',
        studyDescription: 'Zipped referral',
      },
      documents,
    );
    await documents.getByRole('button', { name: 'Upload documents' }).click();
    await documents.getByText(MESSAGES.linkDocumentsDone).waitFor({ timeout: 60_000 });
    expect(outsider.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it('shows the requester the DICOM exam and the PDF exam in the link group', async () => {
    const found = await findStudies(baseUrl, sid, {
      'filter.patientid.like': mrn,
      'filter.phi_namespace.equals': emergency,
    });
    expect(found).toHaveLength(1);
    const study = found[0]!;
    expect(study).toMatchObject({
      patient_name: 'Lunde^Sigrid',
      patientid: mrn,
      study_date: '20260520',
      study_description: 'Zipped referral',
      image_count: 1,
      source_ae_title: 'LINK',
    });
    expect(await instanceClasses(baseUrl, sid, String(study['study_uid']))).toEqual([PDF_CLASS]);
    // Sent under its own name, not its path in the ZIP: the document's title is the file's name.
    const titled = await fetch(
      `${baseUrl}/dicomweb/studies/${String(study['study_uid'])}/series?includefield=0008103E`,
      { headers: { Authorization: `Bearer ${sid}`, Accept: 'application/dicom+json' } },
    );
    const series = (await titled.json()) as Record<string, { Value?: string[] }>[];
    expect(series.map((s) => s['0008103E']?.Value?.[0])).toEqual(['referral-letter.pdf']);

    const dicomStudy = await findStudies(baseUrl, sid, {
      'filter.study_uid.equals': spec!.studyInstanceUid,
      'filter.phi_namespace.equals': emergency,
    });
    expect(dicomStudy).toHaveLength(1);
    expect(dicomStudy[0]).toMatchObject({ image_count: 1, source_ae_title: 'LINK' });
  });
});
