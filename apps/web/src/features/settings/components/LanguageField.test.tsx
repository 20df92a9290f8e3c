import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { UserProfile } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { setLanguage } from '../../../lib/i18n';
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

describe('Profile language picker', () => {
  let saved: URLSearchParams[];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    saved = [];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'user/get': () => [200, { status: 'OK', ...PROFILE }],
        'user/set': (body) => {
          saved.push(body);
          return [200, { status: 'OK', ...PROFILE, language: body.get('language') }];
        },
      }),
    );
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    localStorage.clear();
    await setLanguage('en');
  });

  it('switches every label of the page at once, remembers the choice, and switches back', async () => {
    renderWithRouter(<ProfileTab />);
    await screen.findByDisplayValue('Casey');
    expect(screen.getByLabelText(/First name/)).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'fr' } });
    expect(await screen.findByLabelText(/Prénom/)).toBeTruthy();
    expect(screen.getByLabelText(/Fuseau horaire/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeTruthy();
    // What was typed is kept: the page re-renders, it is not reloaded.
    expect(screen.getByDisplayValue('Casey')).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('fr');
    // Saved with the user alone, not with the form's other fields.
    await waitFor(() =>
      expect(saved.map((b) => [...b.keys()].filter((k) => k !== 'sid'))).toEqual([['language']]),
    );
    expect(saved[0]!.get('language')).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');

    fireEvent.change(screen.getByLabelText('Langue'), { target: { value: 'es' } });
    expect(await screen.findByRole('button', { name: 'Guardar' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Idioma'), { target: { value: 'en' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy());
    expect(screen.getByLabelText(/First name/)).toBeTruthy();
    await waitFor(() => expect(saved.map((b) => b.get('language'))).toEqual(['fr', 'es', 'en']));
  });

  it('starts from the language saved with the user', async () => {
    vi.stubGlobal(
      'fetch',
      apiStub({ 'user/get': () => [200, { status: 'OK', ...PROFILE, language: 'es' }] }),
    );
    renderWithRouter(<ProfileTab />);
    await screen.findByDisplayValue('Casey');
    expect(screen.getByLabelText<HTMLSelectElement>('Language').value).toBe('es');
  });
});
