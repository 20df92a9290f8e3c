import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Order, StudyReport } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { newStudy } from '../../../test/factories';
import { OrdersTab } from './OrdersTab';
import { ReportsTab } from './ReportsTab';

const order = (over: Partial<Order>): Order => ({
  uuid: 'o1',
  account_id: 'acc',
  status: 'SCHEDULED',
  source: 'HL7',
  created: 1,
  updated: 1,
  patient_name: 'DOE^JANE',
  patientid: 'MRN7',
  patient_birth_date: '19800101',
  patient_sex: 'F',
  accession_number: 'ACC7',
  requested_procedure: 'CT CHEST',
  modality: 'CT',
  scheduled_date: '20240115',
  referring_physician: '',
  ...over,
});

const exam = () =>
  newStudy({
    uuid: 's1',
    accession_number: 'ACC7',
    patientid: 'MRN7',
    patient_name: 'DOE^JANE',
    patient_sex: 'F',
    study_date: '20240115',
  });

describe('OrdersTab', () => {
  const asked: Record<string, string>[] = [];
  let refuse: boolean;
  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    asked.length = 0;
    refuse = false;
    vi.stubGlobal(
      'fetch',
      apiStub({
        'order/list': (_body, url) => {
          const query = Object.fromEntries(url.searchParams);
          asked.push(query);
          if (refuse) return [412, { status: 'ERROR', error_type: 'NOT_PERMITTED' }];
          const byAccession = [order({})];
          // The MRN answers the matched order again, and two other candidates.
          const byMrn = [
            order({
              uuid: 'o3',
              accession_number: 'ACC9',
              patient_name: 'DOE^J',
              scheduled_date: '20200101',
            }),
            order({}),
            order({ uuid: 'o2', accession_number: 'ACC8', modality: 'CT' }),
          ];
          const orders = query['filter.accession_number.equals'] ? byAccession : byMrn;
          return [200, { status: 'OK', orders, page: { number: 1, rows: 50, more: 0 } }];
        },
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists the matched order, then the other candidates ranked with their reasons', async () => {
    renderWithRouter(<OrdersTab study={exam()} accountId="acc" />);
    const matched = await screen.findByRole('region', { name: 'Matched orders' });
    expect(within(matched).getAllByRole('listitem')).toHaveLength(1);
    expect(within(matched).getByText(/ACC7/)).toBeTruthy();
    const candidates = screen.getByRole('region', { name: 'Candidate orders, best match first' });
    const items = within(candidates).getAllByRole('listitem');
    expect(items.map((i) => /Accession (\w+)/.exec(i.textContent ?? '')?.[1])).toEqual(['ACC8', 'ACC9']);
    expect(items[1]!.textContent).toMatch(/Date differs/);
    expect(asked.map((q) => Object.keys(q).find((k) => k.startsWith('filter.')))).toEqual([
      'filter.accession_number.equals',
      'filter.patientid.equals',
    ]);
  });

  it('says when the orders are not the caller’s to see', async () => {
    refuse = true;
    renderWithRouter(<OrdersTab study={exam()} accountId="acc" />);
    expect(await screen.findByText('You are not permitted to view orders in this account.')).toBeTruthy();
  });
});

describe('ReportsTab', () => {
  let reports: StudyReport[];
  const added: { body: URLSearchParams | FormData }[] = [];
  const multipart: FormData[] = [];
  const multipartAuthorization: (string | null)[] = [];
  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    added.length = 0;
    multipart.length = 0;
    multipartAuthorization.length = 0;
    reports = [
      {
        id: 'r1',
        kind: 'HL7',
        status: 'Preliminary',
        author: 'Anna Smith',
        time: Date.parse('2024-01-15T10:00:00Z'),
        title: 'CT CHEST',
        text: 'No acute findings.',
        series_uid: null,
      },
    ];
    const stub = apiStub({
      'study/report/list': () => [200, { status: 'OK', reports }],
      'study/report/add': (body) => {
        added.push({ body });
        const report: StudyReport = {
          id: 'r2',
          kind: 'SR',
          status: body.get('final') === '1' ? 'Final' : 'Preliminary',
          author: 'Ann Clinician',
          time: Date.now(),
          title: body.get('title') ?? '',
          text: body.get('text'),
          series_uid: '1.2.3',
        };
        reports = [report, ...reports];
        return [200, { status: 'OK', report }];
      },
    });
    // A PDF goes as multipart, which the stub does not read: kept here to look at.
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.body instanceof FormData) {
        multipart.push(init.body);
        multipartAuthorization.push(new Headers(init.headers).get('authorization'));
      }
      return stub(input, init);
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists the reports with status and author, and adds a final text report', async () => {
    renderWithRouter(<ReportsTab study={exam()} />);
    const list = await screen.findByRole('list', { name: 'Reports' });
    expect(within(list).getByText('Preliminary')).toBeTruthy();
    expect(within(list).getByText(/Anna Smith/)).toBeTruthy();
    expect(within(list).getByText('No acute findings.')).toBeTruthy();

    const form = screen.getByRole('region', { name: 'Add a report' });
    const addButton = within(form).getByRole('button', { name: 'Add report' });
    expect((addButton as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Gatekeeper note' } });
    fireEvent.change(within(form).getByLabelText('Report'), { target: { value: 'Images complete.' } });
    fireEvent.click(within(form).getByLabelText('Final (otherwise Preliminary)'));
    fireEvent.click(addButton);
    await waitFor(() => expect(added).toHaveLength(1));
    expect(Object.fromEntries(added[0]!.body as URLSearchParams)).toMatchObject({
      uuid: 's1',
      title: 'Gatekeeper note',
      text: 'Images complete.',
      final: '1',
    });
    expect(await within(list).findByText('Final')).toBeTruthy();
  });

  it('sends a PDF report as the multipart file with its title and status', async () => {
    renderWithRouter(<ReportsTab study={exam()} />);
    const form = await screen.findByRole('region', { name: 'Add a report' });
    fireEvent.click(within(form).getByRole('button', { name: 'PDF' }));
    const pdf = new File(['%PDF-1.4 report %%EOF'], 'read.pdf', { type: 'application/pdf' });
    fireEvent.change(within(form).getByLabelText('PDF file'), { target: { files: [pdf] } });
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Outside read' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add report' }));
    await waitFor(() => expect(multipart).toHaveLength(1));
    const sent = multipart[0]!;
    expect([sent.get('uuid'), sent.get('title'), sent.get('final'), sent.get('sid')]).toEqual([
      's1',
      'Outside read',
      '0',
      null,
    ]);
    // The sid goes in the header, so the server knows the caller before it reads the file.
    expect(multipartAuthorization).toEqual(['Bearer S1']);
    expect((sent.get('file') as File).name).toBe('read.pdf');
    expect(sent.get('text')).toBeNull();
  });

  it('offers no form without study_report_add', async () => {
    const study = exam();
    study.permissions.study_report_add = 0;
    renderWithRouter(<ReportsTab study={study} />);
    await screen.findByRole('list', { name: 'Reports' });
    expect(screen.queryByRole('region', { name: 'Add a report' })).toBeNull();
  });
});
