import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { emptyPatientForm, MESSAGES } from '@imaging-inbox/contract';
import { newGroup } from '../../../test/factories';
import { apiStub, renderWithRouter } from '../../../test/render';
import { InboxContext, type InboxContextValue } from '../../../session/inbox-context';
import { inThreadScanWorker } from '../lib/test-scan-worker';
import { zipWithInfoZip } from '../lib/test-zip';
import { initialWrapState, NonDicomWizard, type WrapWizardState } from './NonDicomWizard';

const group = newGroup({ name: 'Emergency' });
const inbox = {
  account: { uuid: 'account-1', settings: { enable_dicom_wrapping: '1' } },
} as unknown as InboxContextValue;
const pdf = new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' });
const form = {
  ...emptyPatientForm,
  firstName: 'Ann',
  lastName: 'Lee',
  patientDOB: '1984-03-07',
  patientMRN: 'MRN-1',
  patientGender: 'F',
  studyDate: '2026-05-04',
};

function renderWizard(initial: WrapWizardState, wrapping = '1') {
  vi.stubGlobal(
    'fetch',
    apiStub({
      'group/list': () => [200, { status: 'OK', groups: [group] }],
      'namespace/share_code': () => [
        200,
        {
          status: 'OK',
          namespace_id: group.namespace_id,
          share_code: 'X',
          settings: { enable_dicom_wrapping: wrapping },
        },
      ],
    }),
  );
  return renderWithRouter(
    <InboxContext.Provider value={inbox}>
      <NonDicomWizard initial={initial} />
    </InboxContext.Provider>,
    '/study/upload',
  );
}

const next = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Next' });

describe('NonDicomWizard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('needs a destination whose account enables wrapping', async () => {
    renderWizard({ ...initialWrapState, destination: group.namespace_id }, '0');
    expect(await screen.findByText('This group does not accept PDF, image or video files.')).toBeTruthy();
    expect(next().disabled).toBe(true);
  });

  it('needs a file on Select Exams', () => {
    renderWizard({ ...initialWrapState, step: 1, destination: group.namespace_id });
    expect(next().disabled).toBe(true);
    const input = screen.getByLabelText('PDF, image or video files');
    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(screen.getByText(MESSAGES.wrapFileTypes)).toBeTruthy();
    expect(next().disabled).toBe(true);
    fireEvent.change(input, { target: { files: [pdf] } });
    expect(screen.getByText('report.pdf')).toBeTruthy();
    expect(next().disabled).toBe(false);
  });

  it('takes an MP4 video and lists it with its size', () => {
    renderWizard({ ...initialWrapState, step: 1, destination: group.namespace_id });
    const input = screen.getByLabelText<HTMLInputElement>('PDF, image or video files');
    expect(input.accept).toContain('video/mp4');
    const video = new File([new Uint8Array(3 * 1024 * 1024)], 'wound.mp4', { type: 'video/mp4' });
    // A phone may give an .m4v no type at all: the name is enough for the picker (the server reads the bytes).
    const m4v = new File([new Uint8Array(10)], 'clip.M4V', { type: '' });
    fireEvent.change(input, { target: { files: [video, m4v] } });
    expect(screen.queryByText(MESSAGES.wrapFileTypes)).toBeNull();
    expect(screen.getByText('wound.mp4')).toBeTruthy();
    expect(screen.getByText('clip.M4V')).toBeTruthy();
    expect(screen.getByText(/^3(\.0)? MB$/)).toBeTruthy();
    expect(next().disabled).toBe(false);
  });

  it('keeps Next disabled until the patient form is valid, then confirms with the MRN note', async () => {
    renderWizard({ ...initialWrapState, step: 2, destination: group.namespace_id, files: [pdf] });
    expect(next().disabled).toBe(true);
    renderWizard({ ...initialWrapState, step: 2, destination: group.namespace_id, files: [pdf], form });
    const buttons = screen.getAllByRole<HTMLButtonElement>('button', { name: 'Next' });
    expect(buttons[1]!.disabled).toBe(false);
    fireEvent.click(buttons[1]!);
    expect(await screen.findByText(MESSAGES.uploadMrnNote)).toBeTruthy();
    expect(screen.getByText(/MRN-1/)).toBeTruthy();
  });

  it('holds Next and Back while a ZIP is read, then lists its documents beside the files picked', async () => {
    const scan = inThreadScanWorker();
    vi.stubGlobal('Worker', scan.Worker);
    renderWizard({ ...initialWrapState, step: 1, destination: group.namespace_id });
    const zip = zipWithInfoZip({ 'letter.pdf': '%PDF-1.4 letter', 'photos/wound.png': 'png' });
    const input = screen.getByLabelText('PDF, image or video files');
    fireEvent.change(input, {
      target: { files: [pdf, new File([zip], 'exams.zip', { type: 'application/zip' })] },
    });

    // The loose PDF is listed at once; the ZIP is still being read, and says why Next waits.
    expect(screen.getByText('report.pdf')).toBeTruthy();
    expect(
      screen.getByText('Reading the ZIP: its files join the list when it is read, then Next opens.'),
    ).toBeTruthy();
    expect(next().disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Back' }).disabled).toBe(true);
    fireEvent.click(next());
    expect(screen.getByText('report.pdf')).toBeTruthy();

    act(() => scan.release());
    await waitFor(() => expect(screen.getByText('exams.zip/letter.pdf')).toBeTruthy());
    expect(screen.getByText('exams.zip/photos/wound.png')).toBeTruthy();
    expect(screen.getByText('report.pdf')).toBeTruthy();
    expect(screen.queryByText(/Reading the ZIP/)).toBeNull();
    expect(scan.started[0]!.terminated).toBe(true);
    expect(next().disabled).toBe(false);
  });
});
