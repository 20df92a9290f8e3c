import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES, WRAP_MAX_FILES } from '@imaging-inbox/contract';
import { renderWithRouter } from '../../../test/render';
import { offeredDocuments } from '../lib/link-documents';
import { LinkDocumentsForm } from './LinkDocumentsForm';

const pdf = new File(['%PDF-1.4'], 'letter.pdf', { type: 'application/pdf' });
const photo = new File([new Uint8Array(8)], 'photo.JPG', { type: '' });

/** Answers link/public/wrap with `answer` and records what each call carried. */
function stubWrap(status: number, answer: unknown) {
  const calls: { grant: string | null; body: FormData }[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    expect(input instanceof Request ? input.url : input.toString()).toMatch(/\/api\/v3\/link\/public\/wrap$/);
    const headers = new Headers(init?.headers);
    calls.push({ grant: headers.get('X-Link-Grant'), body: init?.body as FormData });
    return Promise.resolve(
      new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } }),
    );
  });
  return calls;
}

const fill = (label: RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

function fillForm(studyDate: string) {
  fill(/^First name/, 'Kari');
  fill(/^Last name/, 'Nordmann');
  fill(/^Date of Birth/, '1980-02-03');
  fill(/^MRN/, 'MRN-77');
  fill(/^Study Date/, studyDate);
}

describe('LinkDocumentsForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the form messages, then sends every document with the form in one call under the grant', async () => {
    const calls = stubWrap(202, { status: 'OK', study_uid: '2.25.1', study_uuid: 'u', instances: [] });
    renderWithRouter(<LinkDocumentsForm documents={[pdf, photo]} grant={() => Promise.resolve('g-1')} />);
    expect(screen.getByText('letter.pdf')).toBeTruthy();
    expect(screen.getByText('photo.JPG')).toBeTruthy();

    const upload = screen.getByRole('button', { name: 'Upload documents' });
    fireEvent.click(upload);
    expect(screen.getByText(MESSAGES.formMandatory)).toBeTruthy();
    expect(screen.getAllByText(MESSAGES.formEnterValue).length).toBeGreaterThan(0);
    expect(calls).toHaveLength(0);

    fillForm('2999-01-01');
    fireEvent.click(upload);
    expect(screen.getByText(MESSAGES.formStudyDateFuture)).toBeTruthy();
    expect(calls).toHaveLength(0);

    fill(/^Study Date/, '2025-12-01');
    // The sex is a select: open it and choose.
    fireEvent.mouseDown(screen.getByLabelText(/^Sex/));
    fireEvent.click(await screen.findByRole('option', { name: 'Female' }));
    fireEvent.click(upload);
    expect(await screen.findByText(MESSAGES.linkDocumentsDone)).toBeTruthy();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.grant).toBe('g-1');
    expect(calls[0]!.body.get('lastName')).toBe('Nordmann');
    expect(calls[0]!.body.get('studyDate')).toBe('2025-12-01');
    expect(calls[0]!.body.getAll('file').map((f) => (f as File).name)).toEqual(['letter.pdf', 'photo.JPG']);
  });

  it('tells a refusal: the group not accepting documents, or a file the server could not read', async () => {
    stubWrap(412, { status: 'ERROR', error_type: 'INVALID_FILE_CONTENT', error_subtype: 'photo.JPG' });
    renderWithRouter(<LinkDocumentsForm documents={[pdf, photo]} grant={() => Promise.resolve('g-2')} />);
    fillForm('2025-12-01');
    fireEvent.mouseDown(screen.getByLabelText(/^Sex/));
    fireEvent.click(await screen.findByRole('option', { name: 'Male' }));
    fireEvent.click(screen.getByRole('button', { name: 'Upload documents' }));
    expect(await screen.findByText(`${MESSAGES.linkDocumentUnreadable} (photo.JPG)`)).toBeTruthy();
    vi.unstubAllGlobals();
    stubWrap(412, { status: 'ERROR', error_type: 'NOT_PERMITTED', error_subtype: 'enable_dicom_wrapping' });
    fireEvent.click(screen.getByRole('button', { name: 'Upload documents' }));
    await waitFor(() => expect(screen.getByText(MESSAGES.linkDocumentsNotAccepted)).toBeTruthy());
  });
});

describe('LinkDocumentsForm: documents from a ZIP', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists them by their path, sends them under their own name, and names a refused one by its path', async () => {
    const fromZip = new File(['%PDF-1.4'], 'exams.zip/letters/referral.pdf');
    const calls = stubWrap(412, {
      status: 'ERROR',
      error_type: 'INVALID_FILE_CONTENT',
      error_subtype: 'referral.pdf',
    });
    renderWithRouter(<LinkDocumentsForm documents={[fromZip, pdf]} grant={() => Promise.resolve('g-3')} />);
    expect(screen.getByText('exams.zip/letters/referral.pdf')).toBeTruthy();
    fillForm('2025-12-01');
    fireEvent.mouseDown(screen.getByLabelText(/^Sex/));
    fireEvent.click(await screen.findByRole('option', { name: 'Female' }));
    fireEvent.click(screen.getByRole('button', { name: 'Upload documents' }));
    expect(
      await screen.findByText(`${MESSAGES.linkDocumentUnreadable} (exams.zip/letters/referral.pdf)`),
    ).toBeTruthy();
    const sent = calls[0]!.body.getAll('file') as File[];
    expect(sent.map((f) => f.name)).toEqual(['referral.pdf', 'letter.pdf']);
    expect(await sent[0]!.text()).toBe('%PDF-1.4');
  });
});

describe('offeredDocuments', () => {
  const sized = (name: string, size: number) => {
    const file = new File([], name);
    Object.defineProperty(file, 'size', { value: size });
    return file;
  };

  it('offers the documents found, loose or from a ZIP, and names one over the size limit', () => {
    const fromZip = sized('exams.zip/letters/referral.pdf', 10);
    expect(offeredDocuments([pdf, fromZip])).toEqual({ documents: [pdf, fromZip], problem: null });
    const big = sized('huge.pdf', 101 * 1024 * 1024);
    expect(offeredDocuments([big, fromZip])).toEqual({ documents: [fromZip], problem: 'wrapFileTooLarge' });
  });

  it('offers none when they are more than one submission takes', () => {
    const many = Array.from({ length: WRAP_MAX_FILES + 1 }, (_, i) => sized(`page-${i}.jpg`, 10));
    expect(offeredDocuments(many)).toEqual({ documents: [], problem: 'tooMany' });
    expect(offeredDocuments(many.slice(1)).documents).toHaveLength(WRAP_MAX_FILES);
  });
});
