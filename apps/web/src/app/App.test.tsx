import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { apiStub } from '../test/render';
import { App } from './App';

/** What MUI leaves in a page it drew: its class names, or emotion's style elements. */
const drawnByMui = () =>
  document.querySelector('[class*="Mui"]') !== null || document.querySelector('style[data-emotion]') !== null;

describe('the first visit of sign-in (no router, no MUI)', () => {
  beforeEach(() => window.history.replaceState(null, '', '/'));
  afterEach(() => vi.unstubAllGlobals());

  it('draws the page with its own controls, and nothing of MUI, through a failed sign-in', async () => {
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'session/sso/lookup': () => [200, { status: 'OK', any: 0 }],
        'session/login': (body) => {
          sent.push(`${body.get('login')}:${body.get('password')}`);
          return [412, { status: 'ERROR', error_type: 'BAD_PASSWORD' }];
        },
      }),
    );
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    // The first message's field takes the focus, and each field says it is invalid.
    expect(document.activeElement).toBe(screen.getByLabelText(/Username/));
    expect(screen.getByLabelText(/Username/).getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(screen.getByLabelText(/Username/), { target: { value: ' clinician@demo.local ' } });
    // The message follows the typing once shown.
    await waitFor(() => expect(screen.queryByText('Username is required')).toBeNull());
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText('Your username or password is incorrect.')).toBeTruthy();
    expect(sent).toEqual(['clinician@demo.local:wrong']);
    expect(window.location.pathname).toBe('/');
    expect(drawnByMui()).toBe(false);
  });

  it('sends the trimmed address for password recovery and answers neutrally, still without MUI', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'user/password/lost': (body) => {
          asked.push(body.get('email') ?? '');
          return [412, { status: 'ERROR', error_type: 'NOT_FOUND' }];
        },
      }),
    );
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'nobody' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please enter a valid email')).toBeTruthy();
    expect(asked).toEqual([]);
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: '  nobody@demo.local ' } });
    await waitFor(() => expect(screen.queryByText('Please enter a valid email')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(
      await screen.findByText(
        'If you have a login with this email, a password reset link will be emailed to you.',
      ),
    ).toBeTruthy();
    expect(asked).toEqual(['nobody@demo.local']);
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(drawnByMui()).toBe(false);
  });
});
