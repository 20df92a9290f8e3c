import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { apiStub, renderRoutes } from '../../../test/render';
import { RoutedSignInPage } from './RoutedSignInPage';

const routes = [
  { path: '/', element: <RoutedSignInPage /> },
  { path: '/group/list', element: <div>inbox reached</div> },
];

function fill(login: string, password: string) {
  fireEvent.change(screen.getByLabelText(/Username/), { target: { value: login } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the required-field messages', async () => {
    renderRoutes(routes, '/');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
  });

  it('shows the wrong-credentials message on BAD_PASSWORD', async () => {
    vi.stubGlobal(
      'fetch',
      apiStub({ 'session/login': () => [412, { status: 'ERROR', error_type: 'BAD_PASSWORD' }] }),
    );
    renderRoutes(routes, '/');
    fill('clinician@demo.local', 'wrong');
    expect(await screen.findByText('Your username or password is incorrect.')).toBeTruthy();
  });

  it('shows the unexpected error with a refresh link on other failures', async () => {
    vi.stubGlobal('fetch', apiStub({ 'session/login': () => [500, {}] }));
    renderRoutes(routes, '/');
    fill('clinician@demo.local', 'x');
    expect(await screen.findByText(/An unexpected error occurred/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
  });

  it('stores the sid and opens the inbox on success', async () => {
    vi.stubGlobal(
      'fetch',
      apiStub({
        'session/login': () => [200, { status: 'OK', sid: 'S9' }],
        'session/user': () => [200, { status: 'OK', name: 'Clin', ui_json: '{"a":1}' }],
      }),
    );
    renderRoutes(routes, '/');
    fill('clinician@demo.local', 'Demo-pass-2024');
    expect(await screen.findByText('inbox reached')).toBeTruthy();
    expect(sessionStorage.getItem('sid')).toBe('S9');
    expect(sessionStorage.getItem('user:ui_json')).toBe('{"a":1}');
  });

  it('asks for the two-factor code on MFA_REQUIRED and sends it with the password, BAD_OTP keeping the step', async () => {
    const sent: (string | null)[] = [];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'session/login': (body) => {
          const otp = body.get('otp');
          sent.push(otp);
          if (otp === null) return [412, { status: 'ERROR', error_type: 'MFA_REQUIRED' }];
          if (otp !== '123456') return [412, { status: 'ERROR', error_type: 'BAD_OTP' }];
          return body.get('password') === 'Demo-pass-2024' ? [200, { status: 'OK', sid: 'S7' }] : [412, {}];
        },
        'session/user': () => [200, { status: 'OK', name: 'Clin', ui_json: null }],
      }),
    );
    renderRoutes(routes, '/');
    fill('clinician@demo.local', 'Demo-pass-2024');
    const code = await screen.findByLabelText(/^Code/);
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Wrong or expired code. Try the newest one.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Code/), { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('inbox reached')).toBeTruthy();
    expect(sent).toEqual([null, '000000', '123456']);
  });

  it('shows the QR code to set up on MFA_ENROLMENT_REQUIRED, then the recovery codes once signed in', async () => {
    vi.stubGlobal(
      'fetch',
      apiStub({
        'session/login': (body) =>
          body.get('otp') === null
            ? [
                412,
                {
                  status: 'ERROR',
                  error_type: 'MFA_ENROLMENT_REQUIRED',
                  error_data: {
                    secret: 'ABCDEFGHIJKLMNOP',
                    otpauth_uri: 'otpauth://totp/x',
                    qr_svg: '<svg></svg>',
                  },
                },
              ]
            : [200, { status: 'OK', sid: 'S8', recovery_codes: ['AAAAA-BBBBB', 'CCCCC-DDDDD'] }],
        'session/user': () => [200, { status: 'OK', name: 'Clin', ui_json: null }],
      }),
    );
    renderRoutes(routes, '/');
    fill('clinician@demo.local', 'Demo-pass-2024');
    expect(await screen.findByAltText('QR code to scan with your authenticator app')).toBeTruthy();
    expect(screen.getByText('ABCD EFGH IJKL MNOP')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/^Code/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('AAAAA-BBBBB')).toBeTruthy();
    expect(screen.queryByText('inbox reached')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('inbox reached')).toBeTruthy();
  });

  it('sends an authenticated user with a stored sid to the inbox', async () => {
    sessionStorage.setItem('sid', 'S1');
    vi.stubGlobal('fetch', apiStub({ 'session/user': () => [200, { status: 'OK', name: 'Clin' }] }));
    renderRoutes(routes, '/');
    expect(await screen.findByText('inbox reached')).toBeTruthy();
  });

  it('offers password recovery with the neutral confirmation', async () => {
    vi.stubGlobal('fetch', apiStub({ 'user/password/lost': () => [200, { status: 'OK' }] }));
    renderRoutes(routes, '/');
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    // The recovery form loads on demand.
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Email is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: 'nobody@demo.local' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(
        screen.getByText(
          'If you have a login with this email, a password reset link will be emailed to you.',
        ),
      ).toBeTruthy(),
    );
  });
});
