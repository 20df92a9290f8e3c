import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Menu } from '@mui/material';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { apiStub, renderWithRouter } from '../../test/render';
import { useInvitationItems } from './InvitationItems';

function InvitationMenu() {
  const items = useInvitationItems(() => {});
  return (
    <Menu open anchorEl={document.body}>
      {items}
    </Menu>
  );
}

describe('invitations in the user menu', () => {
  const answered: { path: string; uuid: string | null }[] = [];
  let invitations = [{ account_id: 'acc-p', name: 'Partner Clinic' }];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    answered.length = 0;
    invitations = [{ account_id: 'acc-p', name: 'Partner Clinic' }];
    const answer = (path: string) => (body: URLSearchParams) => {
      answered.push({ path, uuid: body.get('uuid') });
      invitations = [];
      return [200, { status: 'OK' }] as [number, unknown];
    };
    vi.stubGlobal(
      'fetch',
      apiStub({
        'account/invitation/list': () => [200, { status: 'OK', invitations }],
        'account/invitation/accept': answer('account/invitation/accept'),
        'account/invitation/decline': answer('account/invitation/decline'),
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('offers to accept or decline each invitation, and accepts one', async () => {
    renderWithRouter(<InvitationMenu />);
    fireEvent.click(await screen.findByText('Accept the invitation of Partner Clinic'));
    await screen.findByText('Invitation accepted');
    expect(answered).toEqual([{ path: 'account/invitation/accept', uuid: 'acc-p' }]);
    await waitFor(() => expect(screen.queryByText('Decline the invitation of Partner Clinic')).toBeNull());
  });

  it('declines one', async () => {
    renderWithRouter(<InvitationMenu />);
    fireEvent.click(await screen.findByText('Decline the invitation of Partner Clinic'));
    await screen.findByText('Invitation declined');
    expect(answered).toEqual([{ path: 'account/invitation/decline', uuid: 'acc-p' }]);
  });

  it('shows nothing without invitations', async () => {
    invitations = [];
    renderWithRouter(<InvitationMenu />);
    await waitFor(() => expect(screen.queryByText('Invitations')).toBeNull());
  });
});
