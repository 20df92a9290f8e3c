import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { apiStub, renderRoutes } from '../../../test/render';
import { ResetPasswordPage } from './ResetPasswordPage';
import { RoutedSignInPage } from './RoutedSignInPage';

const routes = [
  { path: '/', element: <RoutedSignInPage /> },
  { path: '/reset-password', element: <ResetPasswordPage /> },
];

function submit(password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText(/New password/), { target: { value: password } });
  fireEvent.change(screen.getByLabelText(/Confirm password/), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
}

describe('reset password page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks the rules before calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderRoutes(routes, '/reset-password?token=T');
    submit('abc', 'abd');
    expect(
      await screen.findByText(
        'Password must have at least 8 characters with at least 2 digits and 2 letters.',
      ),
    ).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says when the password was used before', async () => {
    vi.stubGlobal(
      'fetch',
      apiStub({ 'user/password/reset': () => [412, { status: 'ERROR', error_type: 'BAD_PASSWORD' }] }),
    );
    renderRoutes(routes, '/reset-password?token=T');
    submit('abcd1234', 'abcd1234');
    expect(await screen.findByText("Reset Password can't be one of your last three passwords")).toBeTruthy();
  });

  it('returns to sign-in with the success message', async () => {
    vi.stubGlobal('fetch', apiStub({ 'user/password/reset': () => [200, { status: 'OK' }] }));
    renderRoutes(routes, '/reset-password?token=T');
    submit('abcd1234', 'abcd1234');
    expect(
      await screen.findByText('Your password has been reset, please login with the new password.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('explains an expired link', async () => {
    vi.stubGlobal(
      'fetch',
      apiStub({ 'user/password/reset': () => [412, { status: 'ERROR', error_type: 'EXPIRED' }] }),
    );
    renderRoutes(routes, '/reset-password?token=T');
    submit('abcd1234', 'abcd1234');
    expect(await screen.findByText('This password reset link is invalid or has expired.')).toBeTruthy();
  });
});
