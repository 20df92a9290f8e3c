import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MESSAGES, PROFILE_MESSAGES, type UserProfile } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { ProfileTab } from './ProfileTab';

const PROFILE: UserProfile = {
  uuid: 'u1',
  email: 'clinician@demo.local',
  first: 'Casey',
  last: 'Clinician',
  time_zone: null,
  mobile_phone: null,
  share_code: null,
  share_description: null,
  date_format: 'MM-DD-YYYY',
  language: '',
};

describe('ProfileTab', () => {
  let saved: URLSearchParams[];
  let answer: [number, unknown] | null;

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    saved = [];
    answer = null;
    vi.stubGlobal(
      'fetch',
      apiStub({
        'user/get': () => [200, { status: 'OK', ...PROFILE }],
        'user/set': (body) => {
          saved.push(body);
          return answer ?? [200, { status: 'OK', ...PROFILE, first: body.get('first') }];
        },
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const field = (label: RegExp) => screen.getByLabelText(label);
  const save = () => screen.getByRole('button', { name: 'Save' });

  it('shows the loaded profile and keeps Save off until something valid changed', async () => {
    renderWithRouter(<ProfileTab />);
    expect(await screen.findByDisplayValue('Casey')).toBeTruthy();
    expect((field(/Date format/) as HTMLSelectElement).value).toBe('MM-DD-YYYY');
    expect((field(/Time zone/) as HTMLSelectElement).value).toBe('');
    expect(save()).toHaveProperty('disabled', true);
    fireEvent.change(field(/First name/), { target: { value: 'Casey-Ann' } });
    await waitFor(() => expect(save()).toHaveProperty('disabled', false));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(field(/First name/)).toHaveProperty('value', 'Casey'));
    expect(save()).toHaveProperty('disabled', true);
  });

  it('validates on every change with the spec messages and blocks saving', async () => {
    renderWithRouter(<ProfileTab />);
    await screen.findByDisplayValue('Casey');
    fireEvent.change(field(/First name/), { target: { value: ' ' } });
    expect(await screen.findByText(PROFILE_MESSAGES.firstNameRequired)).toBeTruthy();
    fireEvent.change(field(/First name/), { target: { value: 'Casey' } });
    fireEvent.change(field(/Mobile phone/), { target: { value: '0171 555' } });
    expect(await screen.findByText(PROFILE_MESSAGES.phoneInvalid)).toBeTruthy();
    expect(save()).toHaveProperty('disabled', true);
    fireEvent.change(field(/Mobile phone/), { target: { value: '+44 20 7946 0958' } });
    await waitFor(() => expect(screen.queryByText(PROFILE_MESSAGES.phoneInvalid)).toBeNull());
    expect(save()).toHaveProperty('disabled', false);
    expect(saved).toHaveLength(0);
  });

  it('saves every field normalised and shows the success banner', async () => {
    renderWithRouter(<ProfileTab />);
    await screen.findByDisplayValue('Casey');
    fireEvent.change(field(/Time zone/), { target: { value: 'Europe/Berlin' } });
    fireEvent.change(field(/Date format/), { target: { value: 'DD/MM/YYYY' } });
    fireEvent.change(field(/Share code/), { target: { value: ' casey-1 ' } });
    await waitFor(() => expect(save()).toHaveProperty('disabled', false));
    fireEvent.click(save());
    expect(await screen.findByText(MESSAGES.profileSaved)).toBeTruthy();
    expect(Object.fromEntries(saved[0]!)).toMatchObject({
      first: 'Casey',
      time_zone: 'Europe/Berlin',
      date_format: 'DD/MM/YYYY',
      share_code: 'CASEY-1',
    });
  });

  it('puts the server refusal on its field and shows the failure banner', async () => {
    answer = [
      412,
      {
        status: 'ERROR',
        error_type: 'INVALID_FIELD',
        error_subtype: 'share_code',
        error_data: PROFILE_MESSAGES.shareCodeTaken,
      },
    ];
    renderWithRouter(<ProfileTab />);
    await screen.findByDisplayValue('Casey');
    fireEvent.change(field(/Share code/), { target: { value: 'TAKEN-1' } });
    await waitFor(() => expect(save()).toHaveProperty('disabled', false));
    fireEvent.click(save());
    expect(await screen.findByText(MESSAGES.profileFailed)).toBeTruthy();
    expect(screen.getByText(PROFILE_MESSAGES.shareCodeTaken)).toBeTruthy();
  });

  it('shows a share code the user may not change read-only, and saves it unchanged', async () => {
    vi.stubGlobal(
      'fetch',
      apiStub({
        'user/get': () => [
          200,
          {
            status: 'OK',
            ...PROFILE,
            share_code: 'VERA-1',
            share_description: 'Vera',
            share_code_editable: false,
          },
        ],
        'user/set': (body) => {
          saved.push(body);
          return [200, { status: 'OK', ...PROFILE, first: body.get('first') }];
        },
      }),
    );
    renderWithRouter(<ProfileTab />);
    await screen.findByDisplayValue('Casey');
    expect(field(/Share code/)).toHaveProperty('disabled', true);
    expect(field(/Share description/)).toHaveProperty('disabled', true);
    expect(screen.getByText('Your role does not let you change your share code.')).toBeTruthy();
    fireEvent.change(field(/First name/), { target: { value: 'Vera' } });
    await waitFor(() => expect(save()).toHaveProperty('disabled', false));
    fireEvent.click(save());
    expect(await screen.findByText(MESSAGES.profileSaved)).toBeTruthy();
    expect(Object.fromEntries(saved[0]!)).toMatchObject({
      first: 'Vera',
      share_code: 'VERA-1',
      share_description: 'Vera',
    });
  });
});
