import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Destination, StudyPushAttempt } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { newStudy } from '../../../test/factories';
import { PushPanel } from './PushPanel';

const destination = (over: Partial<Destination>): Destination => ({
  uuid: 'd1',
  account_id: 'acc',
  name: 'Main PACS',
  aetitle: 'MAIN',
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
  ...over,
});
const attempt = (over: Partial<StudyPushAttempt>): StudyPushAttempt => ({
  uuid: 'p1',
  destination_id: 'd1',
  destination_name: 'Main PACS',
  status: 'P',
  reason: '2 instance(s) not stored: association aborted',
  image_count: 5,
  images_sent: 3,
  images_failed: 0,
  created: Date.now() - 60_000,
  updated: Date.now() - 60_000,
  ...over,
});

describe('PushPanel', () => {
  let history: StudyPushAttempt[];
  let pending: boolean;
  const pushed: URLSearchParams[] = [];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    pushed.length = 0;
    pending = false;
    history = [attempt({})];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'destination/list': () => [
          200,
          {
            status: 'OK',
            destinations: [destination({}), destination({ uuid: 'd2', name: 'Search only', can_push: 0 })],
          },
        ],
        'study/push/list': () => [200, { status: 'OK', pushes: history }],
        'study/push': (body) => {
          pushed.push(body);
          if (pending) return [412, { status: 'ERROR', error_type: 'PENDING' }];
          const next = attempt({
            uuid: `p${pushed.length + 1}`,
            status: 'I',
            image_count: 2,
            images_sent: 0,
            reason: null,
          });
          history = [next, ...history];
          return [200, { status: 'OK', push: next }];
        },
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the push history and retries a partial push to its destination', async () => {
    renderWithRouter(<PushPanel study={newStudy({ uuid: 's1' })} accountId="acc" />);
    const list = await screen.findByRole('list', { name: 'Push history' });
    expect(await within(list).findByText('Partially sent — Main PACS')).toBeTruthy();
    expect(within(list).getByText(/3 of 5 images sent, 0 failed/)).toBeTruthy();
    expect(within(list).getByText(/association aborted/)).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(pushed).toHaveLength(1));
    expect(Object.fromEntries(pushed[0]!)).toMatchObject({ uuid: 's1', destination_id: 'd1' });
    expect(await within(list).findByText('Queued — Main PACS')).toBeTruthy();
  });

  it('keeps the push history in a polite live region, so a push ending is read out', async () => {
    renderWithRouter(<PushPanel study={newStudy({ uuid: 's1' })} accountId="acc" />);
    const list = await screen.findByRole('list', { name: 'Push history' });
    expect(list.getAttribute('aria-live')).toBe('polite');
    history = [attempt({ status: 'S', images_sent: 5, reason: null })];
    fireEvent.click(await within(list).findByRole('button', { name: 'Retry' }));
    // The same region, still in the page, now says the push completed.
    expect(await within(list).findByText('Completed — Main PACS')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Push history' })).toBe(list);
  });

  it('pushes to a destination that takes pushes and says when one is already queued', async () => {
    renderWithRouter(<PushPanel study={newStudy({ uuid: 's1' })} accountId="acc" />);
    fireEvent.mouseDown(await screen.findByLabelText('Destination'));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Main PACS']);
    fireEvent.click(options[0]!);
    pending = true;
    fireEvent.click(screen.getByRole('button', { name: 'Push to PACS' }));
    expect(await screen.findByText('This exam is already queued for that destination.')).toBeTruthy();
  });
});
