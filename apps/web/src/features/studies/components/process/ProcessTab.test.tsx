import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  Destination,
  GatekeeperConfig,
  Nomination,
  OrderAttributes,
  Study,
} from '@imaging-inbox/contract';
import { apiStub, renderRoutes } from '../../../../test/render';
import { newStudy } from '../../../../test/factories';
import { inboxGroup, withInbox } from '../../../../test/inbox';
import { ProcessTab } from './ProcessTab';

const gatekeeper = inboxGroup({ uuid: 'gk1', name: 'PACS Intake', type: 'GATEKEEPER', namespaceId: 'ns-gk' });

const destination = (over: Partial<Destination>): Destination => ({
  uuid: 'd1',
  account_id: 'acc',
  name: 'Hospital PACS',
  aetitle: 'PACS',
  address: '10.0.0.5',
  port: 104,
  can_search: 1,
  can_search_mwl: 1,
  can_push: 1,
  c_echo_interval: null,
  last_echo: null,
  calling_aet: null,
  shared_target: 0,
  storage_commitment: 0,
  storage_commitment_timeout: null,
  anonymization_id: null,
  tls: 0,
  tls_ca: null,
  tls_cert: null,
  tls_key_set: 0,
  created: 1,
  updated: 1,
  ...over,
});

const nomination: Nomination = {
  uuid: 'n1',
  study_uuid: 's1',
  copy_uuid: 'c1',
  gatekeeper_id: 'gk1',
  gatekeeper_name: 'PACS Intake',
  submitted: true,
  source: 'Emergency',
  nominated_by: 'u1',
  submitted_at: new Date(Date.now() - 3_600_000).toISOString(),
  rejected: false,
  rejection_reason: null,
  rejection_message: null,
  push_status: null,
  answers: { priority: 'Priority', reason_for_visit: 'Chest pain', mrn: 'OTHER-MRN', nominated_by: 'Dr Ann' },
  status: 'IS_NOMINATED',
};

const order = (over: Partial<OrderAttributes & { uuid: string }>) => ({
  uuid: 'o1',
  patient_name: 'DOE^JANE',
  patientid: 'MRN7',
  patient_birth_date: '19800101',
  patient_sex: 'F',
  accession_number: 'ACC-900',
  requested_procedure: 'CT CHEST',
  modality: 'CT',
  scheduled_date: '20240115',
  referring_physician: 'SMITH^ANNA',
  ...over,
});

describe('ProcessTab', () => {
  let config: GatekeeperConfig | null;
  let orders: ReturnType<typeof order>[];
  let failReject: boolean;
  /** The refusal study/process answers, or null to accept. */
  let failProcess: object | null;
  let polls: number;
  const calls: { path: string; body: Record<string, string>; query: Record<string, string> }[] = [];
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    calls.length = 0;
    failReject = false;
    failProcess = null;
    polls = 0;
    orders = [
      order({ uuid: 'o2', patientid: 'X1', patient_name: 'ROE^RICHARD', accession_number: 'ACC-1' }),
      order({}),
    ];
    config = {
      customFields: [
        { name: 'priority', label: 'Priority', required: true, options: ['Routine', 'Priority'] },
        { name: 'reason_for_visit', label: 'Reason for visit', required: true },
        { name: 'mrn', label: 'MRN', required: false },
        { name: 'nominated_by', label: 'Nominated by', required: true },
      ],
      pacsPromotePreference: 'MWL',
      destinations: ['d1'],
      queryDestination: 'd1',
    };
    const record = (path: string) => (body: URLSearchParams, url: URL) => {
      calls.push({ path, body: Object.fromEntries(body), query: Object.fromEntries(url.searchParams) });
    };
    vi.stubGlobal(
      'fetch',
      apiStub({
        'group/get': () => [
          200,
          { status: 'OK', uuid: 'gk1', type: 'GATEKEEPER', gatekeeper_config: config },
        ],
        'study/nomination': () => [200, { status: 'OK', nomination, history: [nomination] }],
        'destination/list': () => [
          200,
          { status: 'OK', destinations: [destination({}), destination({ uuid: 'd2', name: 'Elsewhere' })] },
        ],
        'order/search': (body, url) => {
          record('order/search')(body, url);
          const worklist = {
            state: 'ok',
            destination_id: 'd1',
            destination_name: 'Hospital PACS',
            reason: null,
          };
          return url.searchParams.get('filter.patientid.equals') === 'NONE'
            ? [200, { status: 'OK', orders: [], worklist }]
            : [200, { status: 'OK', orders, worklist }];
        },
        'study/patient/search': (body, url) => {
          record('study/patient/search')(body, url);
          return [200, { status: 'OK', uuid: 'search-1' }];
        },
        'destination/search/get': () => {
          polls += 1;
          return [
            200,
            {
              status: 'OK',
              uuid: 'search-1',
              destination_id: 'd1',
              state: polls < 2 ? 'running' : 'done',
              reason: null,
              retrieves: [],
              results:
                polls < 2
                  ? []
                  : [
                      {
                        study_uid: '1.9',
                        patient_name: 'DOE^JANE^M',
                        patient_birth_date: '19800101',
                        patient_sex: 'F',
                        patientid: 'MRN7',
                        accession_number: 'OLD-1',
                        study_date: '20230101',
                        study_description: 'CT HEAD',
                        modality: 'CT',
                        source_ae: 'PACS',
                      },
                    ],
            },
          ];
        },
        'study/reject': (body, url) => {
          record('study/reject')(body, url);
          return failReject
            ? [412, { status: 'ERROR', error_type: 'ALREADY_PROCESSED' }]
            : [200, { status: 'OK', nomination: { ...nomination, rejected: true, status: 'REJECTED' } }];
        },
        'study/process': (body, url) => {
          record('study/process')(body, url);
          return failProcess
            ? [412, { status: 'ERROR', ...failProcess }]
            : [
                200,
                {
                  status: 'OK',
                  nomination: { ...nomination, status: 'EVALUATING' },
                  push_uuid: 'p1',
                  changed: [],
                },
              ];
        },
        'study/push': (body, url) => {
          record('study/push')(body, url);
          return [200, { status: 'OK', push: {} }];
        },
        'study/list': () => [200, { status: 'OK', studies: [], page: { more: 0 } }],
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const renderTab = (
    state: string,
    study: Study = newStudy({
      uuid: 'c1',
      phi_namespace: 'ns-gk',
      patientid: 'MRN7',
      patient_name: 'DOE^JANE',
      patient_sex: 'F',
      study_date: '20240115',
    }),
  ) =>
    renderRoutes(
      [
        {
          path: '/group/:groupId/:state',
          element: withInbox(<ProcessTab study={study} state={state} accountId="acc" />, [gatekeeper]),
        },
      ],
      `/group/gk1/${encodeURIComponent(state)}`,
    );

  it("shows the nominator's answers and what differs from the exam", async () => {
    renderTab('Nominations');
    const form = await screen.findByRole('form', { name: 'Nomination form' });
    expect(within(form).getByLabelText<HTMLInputElement>('Reason for visit').value).toBe('Chest pain');
    const table = screen.getByRole('table', { name: 'Demographics' });
    expect(within(table).getByLabelText('OTHER-MRN (differs)')).toBeTruthy();
    expect(within(table).getByText('DOE, JANE')).toBeTruthy();
    // The comparison table has the spec's table sizes (SPEC.md section 9).
    const frame = screen.getByRole('region', { name: 'Demographics' });
    expect(getComputedStyle(frame).maxHeight).toBe('455px');
  });

  it('says the exam is being processed, without the wizard, until its processing is done', async () => {
    nomination.status = 'PROCESSING';
    try {
      renderTab('Nominations');
      const panel = await screen.findByLabelText('Exam state');
      expect(panel.getAttribute('data-state')).toBe('Processing');
      expect(within(panel).getByText(/This exam is being processed/)).toBeTruthy();
      expect(screen.queryByRole('form', { name: 'Nomination form' })).toBeNull();
    } finally {
      nomination.status = 'IS_NOMINATED';
    }
  });

  it('rejects with a reason and a message, both required, then moves to Rejected', async () => {
    const view = renderTab('Nominations');
    fireEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getAllByText('Field is required')).toHaveLength(2);
    expect(calls.filter((c) => c.path === 'study/reject')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/^Reason/), { target: { value: 'Wrong patient' } });
    fireEvent.change(within(dialog).getByLabelText(/^Message/), {
      target: { value: 'Please check the MRN.' },
    });
    failReject = true;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Failed to reject exam')).toBeTruthy();
    failReject = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Exam has been rejected')).toBeTruthy();
    expect(calls.filter((c) => c.path === 'study/reject').at(-1)!.body).toMatchObject({
      uuid: 'c1',
      reason: 'Wrong patient',
      message: 'Please check the MRN.',
    });
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/group/gk1/Rejected'), {
      timeout: 3000,
    });
  });

  it('finds orders (MWL flow), ranks them, compares the best and sends it to PACS, saying in words why a send failed', async () => {
    config = { ...config!, destinations: ['d1', 'd2'] };
    const view = renderTab('Nominations');
    fireEvent.click(await screen.findByRole('button', { name: 'Process' }));
    const value = await screen.findByLabelText('MRN');
    fireEvent.change(value, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Please provide a MRN')).toBeTruthy();

    fireEvent.change(value, { target: { value: 'MRN7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const found = await screen.findByRole('list', { name: 'Orders found' });
    expect(calls.find((c) => c.path === 'order/search')!.query).toMatchObject({
      group_id: 'gk1',
      'filter.patientid.equals': 'MRN7',
    });
    // The order matching the exam's MRN and name is ranked first although the server gave it second.
    const items = within(found).getAllByRole('button');
    expect(items[0]!.textContent).toContain('DOE, JANE');
    fireEvent.click(items[0]!);

    const table = await screen.findByRole('table', { name: 'Exam and order' });
    expect(getComputedStyle(screen.getByRole('region', { name: 'Exam and order' })).maxHeight).toBe('455px');
    const differing = table.querySelectorAll('tr[data-differs]');
    // Only the accession number differs between this exam and its order.
    expect([...differing].map((r) => r.querySelector('th')!.textContent)).toEqual(['Accession number≠']);
    expect(screen.getByRole('region', { name: 'Candidate orders' })).toBeTruthy();
    // MWL with an order: the accession number comes from the order, not typed.
    expect(screen.queryByLabelText('Accession number')).toBeNull();
    expect(screen.getByLabelText('Priority').textContent).toBe('Priority');

    const send = screen.getByRole('button', { name: 'Send to PACS' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.blur(screen.getByLabelText(/^Destination system/));
    fireEvent.mouseDown(screen.getByLabelText(/^Destination system/));
    expect(screen.getByText('Destination system is required')).toBeTruthy();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Hospital PACS', 'Elsewhere']);
    fireEvent.click(screen.getByRole('option', { name: 'Hospital PACS' }));
    expect((send as HTMLButtonElement).disabled).toBe(false);

    failProcess = { error_type: 'STUDY_UID_CONFLICT' };
    fireEvent.click(send);
    expect(
      await screen.findByText('The destination already holds this exam under another patient.'),
    ).toBeTruthy();
    // A destination that did not answer the check is named, in words, beside the button.
    failProcess = {
      error_type: 'DESTINATION_CHECK_FAILED',
      error_subtype: 'destination_id',
      error_data: { destination_id: 'd1', destination_name: 'Hospital PACS', status: null },
    };
    fireEvent.click(send);
    const alert = await screen.findByText(/^Hospital PACS did not answer\. The exam was not sent/);
    expect(alert.closest('form')).toBe(send.closest('form'));
    failProcess = {
      error_type: 'DESTINATION_CHECK_FAILED',
      error_data: { destination_id: 'd1', destination_name: 'Hospital PACS', status: 'C001' },
    };
    fireEvent.click(send);
    expect(
      await screen.findByText(
        'Hospital PACS refused to say whether it already holds this exam (status C001). The exam was not sent.',
      ),
    ).toBeTruthy();
    failProcess = {
      error_type: 'STUDY_UID_CONFLICT',
      error_data: { destination_id: 'd1', patientid: 'MRN-9', patient_name: 'ROE^RICHARD' },
    };
    fireEvent.click(send);
    expect(
      await screen.findByText(
        'Hospital PACS already holds this exam under another patient (ROE, RICHARD, MRN MRN-9). The exam was not sent.',
      ),
    ).toBeTruthy();
    failProcess = null;
    fireEvent.click(send);
    expect(await screen.findByText('Exam is being sent to PACS')).toBeTruthy();
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(calls.filter((c) => c.path === 'study/process').at(-1)!.body).toEqual({
      sid: 'S1',
      uuid: 'c1',
      destination_id: 'd1',
      priority: 'Priority',
      order_id: 'o1',
      patient_name: 'DOE^JANE',
      patientid: 'MRN7',
      patient_birth_date: '19800101',
      patient_sex: 'F',
      accession_number: 'ACC-900',
      requested_procedure: 'CT CHEST',
      referring_physician: 'SMITH^ANNA',
    });
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/group/gk1/Queued'), {
      timeout: 4000,
    });
  });

  it('offers to send without an order when none is found, the accession number then typed', async () => {
    renderTab('Nominations');
    fireEvent.click(await screen.findByRole('button', { name: 'Process' }));
    fireEvent.change(await screen.findByLabelText('MRN'), { target: { value: 'NONE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const notFound = await screen.findByLabelText('No orders found');
    fireEvent.click(within(notFound).getByRole('button', { name: 'Send to PACS without an order' }));
    fireEvent.change(await screen.findByLabelText('Accession number'), { target: { value: 'A-77' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start over' }));
    expect(await screen.findByLabelText('Find orders of')).toBeTruthy();
  });

  it('goes straight to the comparison with no query, with the accession number typed', async () => {
    config = { ...config!, pacsPromotePreference: 'NONE', queryDestination: null };
    renderTab('Nominations');
    fireEvent.click(await screen.findByRole('button', { name: 'Process' }));
    expect(await screen.findByLabelText('Accession number')).toBeTruthy();
    expect(
      screen.getByRole('table', { name: 'Exam and order' }).querySelectorAll('tr[data-differs]'),
    ).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('form', { name: 'Nomination form' })).toBeTruthy();
  });

  it('searches the patient by C-FIND (C-Find flow), polling until the search ends, and compares', async () => {
    config = { ...config!, pacsPromotePreference: 'C-Find' };
    renderTab('Nominations');
    fireEvent.click(await screen.findByRole('button', { name: 'Process' }));
    expect(screen.getByLabelText('Destination').textContent).toBe('Hospital PACS');
    fireEvent.click(await screen.findByRole('button', { name: 'Search' }));
    const found = await screen.findByRole('list', { name: 'Patients found' }, { timeout: 4000 });
    expect(calls.find((c) => c.path === 'study/patient/search')!.body).toMatchObject({
      uuid: 'c1',
      patientid: 'MRN7',
    });
    expect(polls).toBeGreaterThanOrEqual(2);
    fireEvent.click(within(found).getAllByRole('button')[0]!);
    // C-Find: the accession number is typed on the comparison.
    expect(await screen.findByLabelText('Accession number')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Exam and order' }).textContent).toContain('DOE, JANE, M');
  });

  it('says when the gatekeeper group has no configuration', async () => {
    config = null;
    renderTab('Nominations');
    expect(await screen.findByText('PACS form not configured. Contact your administrator')).toBeTruthy();
  });

  it('shows a failed push in red with Retry, and a rejection in grey with why', async () => {
    const failed = newStudy({
      uuid: 'c1',
      phi_namespace: 'ns-gk',
      study_push_status: [
        {
          status: 'F',
          updated: new Date(Date.now() - 120_000).toISOString(),
          destination_name: 'Hospital PACS',
          destination_id: 'd1',
          reason: 'association refused',
        },
      ],
    });
    const view = renderTab('Failed', failed);
    const panel = await screen.findByLabelText('Exam state');
    expect(within(panel).getByText('Sending this exam to PACS failed')).toBeTruthy();
    expect(within(panel).getByText(/Hospital PACS, 2 minutes ago/)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'study/push')?.body).toMatchObject({
        uuid: 'c1',
        destination_id: 'd1',
      }),
    );
    view.unmount();

    nomination.rejected = true;
    nomination.rejection_reason = 'Wrong patient';
    nomination.rejection_message = 'Please check the MRN.';
    try {
      renderTab('Rejected', newStudy({ uuid: 'c1', phi_namespace: 'ns-gk' }));
      const grey = await screen.findByLabelText('Exam state');
      expect(await within(grey).findByText(/Wrong patient/)).toBeTruthy();
      expect(within(grey).getByText(/Please check the MRN\./)).toBeTruthy();
    } finally {
      nomination.rejected = false;
    }
  });
});
