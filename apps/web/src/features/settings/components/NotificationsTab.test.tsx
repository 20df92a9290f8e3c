import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@imaging-inbox/contract';
import type { NotificationPreference } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { NotificationsTab } from './NotificationsTab';

const pref = (over: Partial<NotificationPreference>): NotificationPreference => ({
  namespace_id: 'ns',
  name: 'Group',
  type: 'CLOUD',
  account_id: 'acc',
  event_share: 0,
  event_harvest: 0,
  event_nominate: 0,
  can_modify: 1,
  ...over,
});

describe('NotificationsTab', () => {
  let stored: NotificationPreference[];
  let refuse: string | null;
  const sets: URLSearchParams[] = [];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    sets.length = 0;
    refuse = null;
    stored = [
      pref({ namespace_id: 'ns-acc', name: 'Demo Hospital', type: 'ACCOUNT' }),
      pref({ namespace_id: 'ns-e', name: 'Emergency', event_share: 1 }),
      pref({ namespace_id: 'ns-t', name: 'Teaching Files', type: 'LIBRARY', can_modify: 0 }),
    ];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'user/event/list': () => [200, { status: 'OK', events: stored }],
        'user/event/set': (_body, url) => {
          sets.push(url.searchParams);
          if (refuse) return [412, { status: 'ERROR', error_type: refuse }];
          const ns = url.searchParams.get('namespace_id');
          stored = stored.map((p) =>
            p.namespace_id === ns
              ? {
                  ...p,
                  ...(url.searchParams.has('event_share')
                    ? { event_share: Number(url.searchParams.get('event_share')) as 0 | 1 }
                    : {}),
                  ...(url.searchParams.has('event_harvest')
                    ? { event_harvest: Number(url.searchParams.get('event_harvest')) as 0 | 1 }
                    : {}),
                }
              : p,
          );
          return [200, { status: 'OK', ...stored.find((p) => p.namespace_id === ns) }];
        },
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const toggle = (label: string) => screen.getByRole<HTMLInputElement>('switch', { name: label });

  it('shows both toggles per namespace with their stored state; locked ones are disabled', async () => {
    renderWithRouter(<NotificationsTab />);
    expect(await screen.findByText('Demo Hospital')).toBeTruthy();
    expect(toggle('Shared with me — Emergency').checked).toBe(true);
    expect(toggle('Harvested from gateway — Emergency').checked).toBe(false);
    expect(toggle('Shared with me — Teaching Files').disabled).toBe(true);
    expect(screen.getByText(/Ask your administrator/)).toBeTruthy();
  });

  it('saves a switch with user/event/set and confirms', async () => {
    renderWithRouter(<NotificationsTab />);
    fireEvent.click(await screen.findByRole('switch', { name: 'Harvested from gateway — Emergency' }));
    expect(await screen.findByText(MESSAGES.changesSaved)).toBeTruthy();
    expect(sets).toHaveLength(1);
    expect(Object.fromEntries(sets[0]!)).toEqual({ sid: 'S1', namespace_id: 'ns-e', event_harvest: '1' });
    await waitFor(() => expect(toggle('Harvested from gateway — Emergency').checked).toBe(true));
  });

  it.each([
    ['NOT_FOUND', MESSAGES.notificationsNotFound],
    ['NOT_MEMBER', MESSAGES.notificationsNotMember],
    ['NOT_PERMITTED', MESSAGES.notificationsNotPermitted],
  ])('shows its own message for %s and puts the switch back', async (code, message) => {
    refuse = code;
    renderWithRouter(<NotificationsTab />);
    fireEvent.click(await screen.findByRole('switch', { name: 'Shared with me — Demo Hospital' }));
    expect(await screen.findByText(message)).toBeTruthy();
    await waitFor(() => expect(toggle('Shared with me — Demo Hospital').checked).toBe(false));
  });
});
