import type { Locator, Page } from 'playwright-core';

/**
 * A valid one-page PDF (the xref offsets are computed), for the browser tests that upload documents
 * (the wizard's non-DICOM upload and the request link's).
 */
export function onePagePdf(): string {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  return `${body}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
}

/** What the patient and exam form of a document upload is given; fields left out are not touched. */
export interface PatientDetails {
  firstName?: string;
  lastName?: string;
  birthDate?: string;
  mrn?: string;
  sex?: 'Male' | 'Female';
  studyDate?: string;
  studyTime?: string;
  studyDescription?: string;
}

/**
 * Fills the patient and exam form, in the upload wizard or on the request-link page (`form`: the
 * region holding it). The sex menu's options open at page level.
 */
export async function fillPatientForm(
  page: Page,
  details: PatientDetails,
  form: Page | Locator = page,
): Promise<void> {
  const fill = async (label: RegExp, value: string | undefined) => {
    if (value !== undefined) await form.getByLabel(label).fill(value);
  };
  await fill(/^First name/, details.firstName);
  await fill(/^Last name/, details.lastName);
  await fill(/^Date of Birth/, details.birthDate);
  await fill(/^MRN/, details.mrn);
  if (details.sex) {
    await form.getByRole('combobox', { name: /^Sex/ }).click();
    await page.getByRole('option', { name: details.sex, exact: true }).click();
  }
  await fill(/^Study Date/, details.studyDate);
  await fill(/^Study Time/, details.studyTime);
  await fill(/^Study Description/, details.studyDescription);
}
