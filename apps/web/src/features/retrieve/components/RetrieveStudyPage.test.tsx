import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  AccountAnswer,
  Destination,
  DestinationSearch,
  DestinationSearchResult,
  SessionUser,
} from '@imaging-inbox/contract';
import { DatePreferencesContext } from '../../../lib/date-preferences';
import { InboxContext } from '../../../session/inbox-context';
import type { InboxGroup } from '../../../session/groups';
import { apiStub, renderRoutes } from '../../../test/render';
import { permissionFlags } from '../../../test/factories';
import { RetrieveStudyPage } from './RetrieveStudyPage';

const user = { uuid: 'u1', name: 'Gate Keeper', admin: 0, sysadmin: 0 } as SessionUser;
const account = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;
const group = (permissions: string[]): InboxGroup => ({
  uuid: 'g1',
  name: 'Cardiology',
  type: 'CLOUD',
  namespaceId: 'ns1',
  namespaceIds: ['ns1'],
  permissions: permissionFlags(permissions),
  states: ['Inbox'],
});
const destination: Destination = {
  uuid: 'd1',
  account_id: 'acc',
  name: 'Regional Hospital Archive PACS North',
  aetitle: 'NORTH',
  address: '10.0.0.5',
  port: 104,
  can_search: 1,
  can_search_mwl: 0,
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
};
const exam = (over: Partial<DestinationSearchResult>): DestinationSearchResult => ({
  study_uid: '1.1',
  patient_name: 'DOE^JANE',
  patient_birth_date: '19800102',
  patient_sex: 'F',
  patientid: 'MRN1',
  accession_number: 'ACC1',
  study_date: '20240301',
  study_description: 'CT HEAD',
  modality: 'CT',
  source_ae: 'NORTH',
  ...over,
});

function renderPage(permissions = ['destination_search']) {
  // A user who reads dates day first: every date on the page follows it.
  const page = (
    <DatePreferencesContext.Provider value={{ dateFormat: 'DD/MM/YYYY', timeZone: null }}>
      <InboxContext.Provider
        value={{ user, account, permissions: permissionFlags(), groups: [group(permissions)] }}
      >
        <RetrieveStudyPage />
      </InboxContext.Provider>
    </DatePreferencesContext.Provider>
  );
  return renderRoutes([{ path: '/study/retrieve/:groupId', element: page }], '/study/retrieve/g1');
}

describe('RetrieveStudyPage', () => {
  let search: DestinationSearch;
  let polls: number;
  const searches: URLSearchParams[] = [];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    searches.length = 0;
    polls = 0;
    search = { uuid: 's1', destination_id: 'd1', state: 'running', reason: null, results: [], retrieves: [] };
    vi.stubGlobal(
      'fetch',
      apiStub({
        'destination/list': () => [200, { status: 'OK', destinations: [destination] }],
        'destination/search': (body) => {
          searches.push(body);
          return [200, { status: 'OK', uuid: 's1' }];
        },
        'destination/search/get': () => {
          polls += 1;
          return [200, { status: 'OK', ...search }];
        },
        'destination/retrieve': (body) => {
          const retrieve = {
            uuid: `r-${body.get('study_uid')}`,
            study_uid: body.get('study_uid')!,
            state: 'running' as const,
            reason: null,
            completed: 0,
            failed: 0,
            remaining: null,
            created: 1,
            updated: 1,
          };
          search = { ...search, retrieves: [...search.retrieves, retrieve] };
          return [200, { status: 'OK', ...retrieve }];
        },
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for a criterion, then searches, shows results by patient and retrieves the selected exams into the group it names', async () => {
    renderPage();
    const form = await screen.findByRole('form', { name: 'Search a destination' });
    // The destination's name is cut to 25 characters in the select.
    fireEvent.mouseDown(within(form).getByLabelText('Destination'));
    fireEvent.click(await screen.findByRole('option', { name: 'Regional Hospital Archive…' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Please enter a value to perform search.')).toBeTruthy();
    expect(searches).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('Patient name'), { target: { value: 'DOE' } });
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'HEAD' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(searches).toHaveLength(1));
    expect(Object.fromEntries(searches[0]!)).toMatchObject({
      uuid: 'd1',
      copy_to: 'ns1',
      patient_name: 'DOE',
      query_fields: JSON.stringify({ StudyDescription: 'HEAD' }),
    });

    // Polled until the search is done.
    search = {
      ...search,
      state: 'done',
      results: [
        exam({}),
        exam({ study_uid: '1.2', study_description: 'CT CHEST', accession_number: 'ACC2' }),
        exam({
          study_uid: '2.1',
          patient_name: 'ROE^RICHARD',
          patientid: 'MRN2',
          study_description: 'MR KNEE',
        }),
      ],
    };
    const table = await screen.findByRole('table', { name: 'Search results' }, { timeout: 5000 });
    expect(within(table).getByText('DOE, JANE')).toBeTruthy();
    expect(within(table).getByText('ROE, RICHARD')).toBeTruthy();
    expect(within(table).getAllByText('MRN MRN1 · born 02/01/1980 · F')).toHaveLength(1);
    expect(within(table).getAllByRole('cell', { name: '01/03/2024' })).toHaveLength(3);
    expect(polls).toBeGreaterThanOrEqual(2);

    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select CT CHEST' }));
    fireEvent.click(within(table).getByRole('checkbox', { name: 'Select MR KNEE' }));
    const panel = screen.getByRole('region', { name: 'Selected exams' });
    expect(within(panel).getByText('Exams are retrieved into the group Cardiology.')).toBeTruthy();
    expect(within(panel).getByText('DOE, JANE — CT CHEST')).toBeTruthy();
    expect(within(panel).getAllByText('01/03/2024')).toHaveLength(2);
    fireEvent.click(within(panel).getByRole('button', { name: 'Retrieve' }));
    expect(await within(panel).findAllByText(/Retrieving…/)).toHaveLength(2);

    search = {
      ...search,
      retrieves: search.retrieves.map((r) =>
        r.study_uid === '1.2'
          ? { ...r, state: 'done', completed: 12 }
          : { ...r, state: 'failed', reason: 'the destination refused the retrieve (status C001)' },
      ),
    };
    expect(await within(panel).findByText(/Retrieved successfully/, {}, { timeout: 5000 })).toBeTruthy();
    expect(within(panel).getByText(/The retrieve failed: the destination refused the retrieve/)).toBeTruthy();
  });

  it("says 'No results found!' when the search finds nothing, and checks the dates", async () => {
    renderPage();
    const form = await screen.findByRole('form', { name: 'Search a destination' });
    fireEvent.mouseDown(within(form).getByLabelText('Destination'));
    fireEvent.click(await screen.findByRole('option', { name: 'Regional Hospital Archive…' }));
    fireEvent.change(within(form).getByLabelText('MRN'), { target: { value: 'MRN9' } });
    fireEvent.change(within(form).getByLabelText('From'), { target: { value: '2024-01-01' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Please enter both dates, or none')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('To'), { target: { value: '2999-01-01' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
    expect(await screen.findByText("Dates can't be ahead of today's date")).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('To'), { target: { value: '2024-02-01' } });
    search = { ...search, state: 'done' };
    fireEvent.click(within(form).getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No results found!')).toBeTruthy();
    expect(Object.fromEntries(searches[0]!)).toMatchObject({
      patientid: 'MRN9',
      start_datetime: '2024-01-01',
      end_datetime: '2024-02-01',
    });
  });

  it('keeps the no-permission banner for members without destination_search', () => {
    renderPage(['study_view']);
    expect(screen.getByText("You don't have enough permissions to retrieve a study")).toBeTruthy();
  });
});
