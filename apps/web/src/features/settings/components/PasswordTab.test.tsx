import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { PasswordTab } from './PasswordTab';

describe('PasswordTab', () => {
  let sent: URLSearchParams[];
  let answer: [number, unknown];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    sent = [];
    answer = [200, { status: 'OK', message: MESSAGES.passwordChanged }];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'user/password/change': (body) => {
          sent.push(body);
          return answer;
        },
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const fill = (current: string, password: string, confirm: string) => {
    fireEvent.change(screen.getByLabelText(/Current password/), { target: { value: current } });
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: password } });
    fireEvent.change(screen.getByLabelText(/Confirm new password/), { target: { value: confirm } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
  };

  it('checks the fields before calling the server', async () => {
    renderWithRouter(<PasswordTab />);
    fill('', 'short', 'other');
    expect(await screen.findByText(MESSAGES.passwordRequiredDot)).toBeTruthy();
    expect(screen.getByText(MESSAGES.passwordRule)).toBeTruthy();
    fill('Old-pass-11', 'Fresh-pass-55', 'Fresh-pass-56');
    expect(await screen.findByText(MESSAGES.passwordsDoNotMatch)).toBeTruthy();
    expect(sent).toHaveLength(0);
  });

  it('sends old, new and confirmation, then empties the form and says so', async () => {
    renderWithRouter(<PasswordTab />);
    fill('Old-pass-11', 'Fresh-pass-55', 'Fresh-pass-55');
    expect(await screen.findByText(MESSAGES.passwordChanged)).toBeTruthy();
    expect(Object.fromEntries(sent[0]!)).toMatchObject({
      old_password: 'Old-pass-11',
      password: 'Fresh-pass-55',
      password_confirm: 'Fresh-pass-55',
    });
    expect(screen.getByLabelText(/Current password/)).toHaveProperty('value', '');
  });

  it('shows a wrong current password and a reused one on their fields', async () => {
    answer = [412, { status: 'ERROR', error_type: 'INVALID_PASSWORD' }];
    renderWithRouter(<PasswordTab />);
    fill('Wrong-pass-11', 'Fresh-pass-55', 'Fresh-pass-55');
    expect(await screen.findByText(MESSAGES.currentPasswordWrong)).toBeTruthy();
    answer = [412, { status: 'ERROR', error_type: 'BAD_PASSWORD', error_subtype: 'reused' }];
    fill('Old-pass-11', 'Fresh-pass-55', 'Fresh-pass-55');
    await waitFor(() => expect(screen.getByText(MESSAGES.passwordReused)).toBeTruthy());
  });
});
