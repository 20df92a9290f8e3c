import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Nomination, NominationFormField, PromoteTarget } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { newStudy } from '../../../test/factories';
import { withInbox } from '../../../test/inbox';
import { PacsTab } from './PacsTab';

const FORM: NominationFormField[] = [
  { name: 'order_type', label: 'Order type', required: false },
  { name: 'priority', label: 'Priority', required: true, options: ['Routine', 'Priority'] },
  { name: 'reason_for_visit', label: 'Reason for visit', required: true },
  { name: 'nominated_by', label: 'Nominated by', required: true },
];

const nomination = (over: Partial<Nomination>): Nomination => ({
  uuid: 'n1',
  study_uuid: 's1',
  copy_uuid: 'c1',
  gatekeeper_id: 'gk1',
  gatekeeper_name: 'PACS Intake',
  submitted: true,
  source: 'Emergency',
  nominated_by: 'u1',
  submitted_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  rejected: false,
  rejection_reason: null,
  rejection_message: null,
  push_status: null,
  answers: { priority: 'Routine', reason_for_visit: 'Chest pain', nominated_by: 'Dr Ann' },
  status: 'IS_NOMINATED',
  ...over,
});

describe('PacsTab: nominate to PACS', () => {
  let targets: PromoteTarget[];
  let history: Nomination[];
  let failCancel: boolean;
  const calls: { path: string; body: Record<string, string> }[] = [];
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    calls.length = 0;
    warn.mockClear();
    failCancel = false;
    history = [];
    targets = [
      { uuid: 'gk1', name: 'PACS Intake', customFields: FORM },
      { uuid: 'gk2', name: 'Radiology Gatekeeper', customFields: null },
    ];
    const record = (path: string, body: URLSearchParams) =>
      calls.push({ path, body: Object.fromEntries(body) });
    vi.stubGlobal(
      'fetch',
      apiStub({
        'group/get': () => [
          200,
          {
            status: 'OK',
            uuid: 'g1',
            type: 'CLOUD',
            cloud_config: { promoteTo: ['gk1'] },
            promote_targets: targets,
          },
        ],
        'study/nomination': () => [200, { status: 'OK', nomination: history[0] ?? null, history }],
        'study/nominate': (body) => {
          record('study/nominate', body);
          history = [
            nomination({ answers: { reason_for_visit: body.get('customfield-reason_for_visit')! } }),
            ...history,
          ];
          return [200, { status: 'OK', nomination: history[0] }];
        },
        'study/nominate/cancel': (body) => {
          record('study/nominate/cancel', body);
          if (failCancel) return [412, { status: 'ERROR', error_type: 'ALREADY_PROCESSED' }];
          history = [{ ...history[0]!, submitted: false, status: 'NOT_NOMINATED' }, ...history.slice(1)];
          return [200, { status: 'OK' }];
        },
        'study/list': () => [200, { status: 'OK', studies: [], page: { more: 0 } }],
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const renderTab = (permissions?: { study_push: 0 | 1 }) => {
    const study = newStudy({ uuid: 's1', phi_namespace: 'ns-1' });
    if (permissions) study.permissions.study_push = permissions.study_push;
    return renderWithRouter(withInbox(<PacsTab study={study} accountId="acc" />));
  };
  const choose = async (label: string, option: string) => {
    fireEvent.mouseDown(await screen.findByLabelText(new RegExp(`^${label}`)));
    fireEvent.click(await screen.findByRole('option', { name: option }));
  };

  it('refuses a form with a blank mandatory field, then nominates with the answers', async () => {
    renderTab({ study_push: 0 });
    await choose('Gatekeeper group', 'PACS Intake');
    // Required fields are starred; the choice field starts on its first option.
    expect(screen.getByLabelText(/^Reason for visit \*/)).toBeTruthy();
    expect(screen.getByLabelText(/^Priority/).textContent).toBe('Routine');
    fireEvent.change(screen.getByLabelText(/^Reason for visit/), { target: { value: 'Chest pain' } });
    fireEvent.click(screen.getByRole('button', { name: 'Nominate' }));
    expect(await screen.findByText('Please complete all the mandatory fields.')).toBeTruthy();
    expect(screen.getByText('Please enter a value')).toBeTruthy();
    expect(calls).toHaveLength(0);

    fireEvent.change(screen.getByLabelText(/^Nominated by/), { target: { value: '  Dr Ann ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Nominate' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toEqual({
      sid: 'S1',
      uuid: 's1',
      gatekeeper_id: 'gk1',
      'customfield-priority': 'Routine',
      'customfield-reason_for_visit': 'Chest pain',
      'customfield-nominated_by': 'Dr Ann',
    });
    const panel = await screen.findByLabelText('Nomination status');
    expect(within(panel).getByText('Nominated to PACS Intake')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nominate' })).toBeNull();
  });

  it('says when the chosen gatekeeper has no form', async () => {
    renderTab();
    await choose('Gatekeeper group', 'Radiology Gatekeeper');
    expect(await screen.findByText('PACS form not configured. Contact your administrator')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nominate' })).toBeNull();
    expect(warn).toHaveBeenCalledWith('GateKeeper configuration not found!');
  });

  it('cancels a nomination after asking, says so, and says so when the cancel fails', async () => {
    history = [nomination({})];
    renderTab();
    const panel = await screen.findByLabelText('Nomination status');
    const cancelCalls = () => calls.filter((c) => c.path === 'study/nominate/cancel').length;
    const askToCancel = async () => {
      // The page behind a dialog is hidden from the accessibility tree until the dialog has gone.
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      fireEvent.click(within(panel).getByRole('button', { name: 'Cancel nomination' }));
      return screen.findByRole('dialog', { name: 'Cancel the nomination to PACS Intake?' });
    };
    // Keeping it sends nothing.
    fireEvent.click(within(await askToCancel()).getByRole('button', { name: 'Keep the nomination' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cancelCalls()).toBe(0);
    expect(screen.queryByText('The nomination was cancelled.')).toBeNull();

    failCancel = true;
    fireEvent.click(within(await askToCancel()).getByRole('button', { name: 'Cancel nomination' }));
    expect(await screen.findByText('Failed to cancel the nomination, please try again!')).toBeTruthy();
    expect(cancelCalls()).toBe(1);
    failCancel = false;
    fireEvent.click(within(await askToCancel()).getByRole('button', { name: 'Cancel nomination' }));
    // Cancelled: the message shows beside the form that is back, and the history lists it.
    expect(await screen.findByText('The nomination was cancelled.')).toBeTruthy();
    expect(await screen.findByLabelText(/^Gatekeeper group/)).toBeTruthy();
    expect(screen.queryByText('Failed to cancel the nomination, please try again!')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const past = screen.getByRole('region', { name: 'Nomination history' });
    expect(within(past).getByText('Cancelled — PACS Intake')).toBeTruthy();
  });

  it('shows why a nomination was rejected, and its details', async () => {
    history = [
      nomination({
        status: 'REJECTED',
        rejected: true,
        rejection_reason: 'Wrong patient',
        rejection_message: 'The MRN does not match our records.',
      }),
    ];
    renderTab();
    const panel = await screen.findByLabelText('Nomination status');
    expect(within(panel).getByText('Rejected by PACS Intake')).toBeTruthy();
    expect(within(panel).getByText('Wrong patient')).toBeTruthy();
    expect(within(panel).getByText('The MRN does not match our records.')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'View details' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Reason for visit')).toBeTruthy();
    expect(within(dialog).getByText('Chest pain')).toBeTruthy();
  });

  it('shows the success once the processed exam reached PACS', async () => {
    history = [nomination({ status: 'NOMINATION_SUCCESS', push_status: 'S' })];
    renderTab();
    expect(await screen.findByText('Sent to PACS by PACS Intake')).toBeTruthy();
  });
});
