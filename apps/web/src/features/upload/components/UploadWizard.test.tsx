import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { permissionFlags, newGroup } from '../../../test/factories';
import { apiStub, renderWithRouter } from '../../../test/render';
import { InboxContext, type InboxContextValue } from '../../inbox/inbox-context';
import { initialWizardState } from '../lib/wizard-state';
import { UploadWizard } from './UploadWizard';

const groups = [
  newGroup({ name: 'Emergency' }),
  newGroup({ name: 'Reading Room', permissions: permissionFlags(['study_view']) }),
  newGroup({ name: 'Archive', type: 'LIBRARY' }),
];
const inbox = { account: { uuid: 'account-1' } } as InboxContextValue;

function renderWizard(initial = initialWizardState) {
  vi.stubGlobal('fetch', apiStub({ 'group/list': () => [200, { status: 'OK', groups }] }));
  return renderWithRouter(
    <InboxContext.Provider value={inbox}>
      <UploadWizard initial={initial} />
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
});
