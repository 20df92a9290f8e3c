import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { permissionFlags, newGroup } from '../../../test/factories';
import { apiStub, renderWithRouter } from '../../../test/render';
import { InboxContext, type InboxContextValue } from '../../../session/inbox-context';
import { buildTestDicom } from '../lib/test-dicom';
import { inThreadScanWorker } from '../lib/test-scan-worker';
import { zipWithInfoZip } from '../lib/test-zip';
import { initialWizardState } from '../lib/wizard-state';
import { UploadWizard } from './UploadWizard';

const groups = [
  newGroup({ name: 'Emergency' }),
  newGroup({ name: 'Reading Room', permissions: permissionFlags(['study_view']) }),
  newGroup({ name: 'Archive', type: 'LIBRARY' }),
];
const inbox = { account: { uuid: 'account-1' } } as InboxContextValue;

function renderWizard(initial = initialWizardState, wrapping = false) {
  vi.stubGlobal('fetch', apiStub({ 'group/list': () => [200, { status: 'OK', groups }] }));
  return renderWithRouter(
    <InboxContext.Provider value={inbox}>
      <UploadWizard initial={initial} wrapping={wrapping} />
    </InboxContext.Provider>,
    '/study/upload',
  );
}

describe('UploadWizard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers cloud groups with study_upload and needs one before Next', async () => {
    renderWizard();
    const next = screen.getByRole('button', { name: 'Next' });
    expect((next as HTMLButtonElement).disabled).toBe(true);
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Destination' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Emergency']);
    fireEvent.click(options[0]!);
    expect((next as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(next);
    expect(screen.getByRole('button', { name: 'Choose folder' })).toBeTruthy();
    // Earlier steps are clickable (MUI renders them as tabs), the current and later ones are not.
    const stepper = screen.getByLabelText('Upload steps');
    expect(
      within(stepper)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Destination']);
    fireEvent.click(within(stepper).getByRole('tab', { name: 'Destination' }));
    expect(await screen.findByRole('combobox', { name: 'Destination' })).toBeTruthy();
  });

  it('shows the invalid-step error for a step outside the wizard', () => {
    renderWizard({ ...initialWizardState, step: 7 });
    expect(screen.getByText('Error: Invalid step')).toBeTruthy();
  });

  it('keeps the note of the documents found when the user comes back to Find Exams', async () => {
    const scan = inThreadScanWorker();
    vi.stubGlobal('Worker', scan.Worker);
    renderWizard({ ...initialWizardState, step: 1, destination: groups[0]!.namespace_id }, true);
    const ct = buildTestDicom([
      [0x0008, 0x0018, 'UI', '1.2.3.4.1'],
      [0x0008, 0x0060, 'CS', 'CT'],
      [0x0010, 0x0010, 'PN', 'DOE^JANE'],
      [0x0020, 0x000d, 'UI', '1.2.3.4'],
    ]);
    // Stored: jsdom has no DecompressionStream (the scan's inflating is tested in media-scan.test).
    const zip = zipWithInfoZip(
      { 'CT/IMG1': ct, 'letter.pdf': '%PDF-1.4', 'wound.png': 'png' },
      { stored: true },
    );
    fireEvent.change(screen.getByLabelText('DICOM files'), {
      target: { files: [new File([zip], 'exams.zip')] },
    });
    act(() => scan.release());
    const note =
      '2 PDF, image or video files are not DICOM: upload them with "PDF, image or video files" above.';
    expect(await screen.findByText(note)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('combobox', { name: 'Destination' })).toBeTruthy();
    const next = screen.getByRole<HTMLButtonElement>('button', { name: 'Next' });
    await waitFor(() => expect(next.disabled).toBe(false));
    fireEvent.click(next);
    expect(screen.getByText(note)).toBeTruthy();
    expect(screen.getByText(/^1 exam found in 1 files/)).toBeTruthy();
  });
});
