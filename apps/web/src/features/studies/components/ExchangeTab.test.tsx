import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MESSAGES } from '@imaging-inbox/contract';
import { demoCustomFields } from '../../../test/custom-fields';
import { newStudy } from '../../../test/factories';
import { apiStub, renderWithRouter } from '../../../test/render';
import { ExchangeTab } from './ExchangeTab';

const input = (el: HTMLElement) => el as HTMLInputElement;

describe('ExchangeTab', () => {
  const calls: { path: string; body: URLSearchParams }[] = [];
  let setAnswer: [number, unknown] = [200, { status: 'OK' }];
  beforeEach(() => {
    calls.length = 0;
    setAnswer = [200, { status: 'OK' }];
    const ok =
      (path: string) =>
      (body: URLSearchParams): [number, unknown] => {
        calls.push({ path, body });
        return [200, { status: 'OK' }];
      };
    vi.stubGlobal(
      'fetch',
      vi.fn(
        apiStub({
          'customfield/list': (_body, url) => {
            expect(url.searchParams.get('account_id')).toBe('account-1');
            expect(url.searchParams.get('filter.object.equals')).toBe('study');
            return [
              200,
              { status: 'OK', customfields: demoCustomFields(), page: { number: 1, rows: 4, more: 0 } },
            ];
          },
          'study/lock': ok('study/lock'),
          'study/unlock': ok('study/unlock'),
          'study/set': (body) => {
            calls.push({ path: 'study/set', body });
            return setAnswer;
          },
        }),
      ),
    );
    sessionStorage.setItem('sid', 'S1');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const study = () =>
    newStudy({
      uuid: 'study-x',
      study_description: 'CT CHEST',
      customfields: [{ uuid: 'cf-priority', name: 'Clinical priority', value: 'Routine' }],
    });

  it('shows the exam fields and draws each custom field by its type, required ones starred', async () => {
    renderWithRouter(<ExchangeTab study={study()} accountId="account-1" />);
    const priority = await screen.findByRole('radiogroup', { name: /Clinical priority/ });
    expect(input(within(priority).getByRole('radio', { name: 'Routine' })).checked).toBe(true);
    expect(
      within(priority)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['Routine', 'Urgent', 'Stat']);
    expect(screen.getByText('Clinical priority').textContent).toContain('*');
    expect(screen.getByRole('combobox', { name: 'Body part' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Referring ward' }).getAttribute('maxlength')).toBe('256');
    const reason = screen.getByRole('textbox', { name: /Referral reason/ });
    expect(reason.tagName).toBe('TEXTAREA');
    expect(screen.getByText('Referral reason', { selector: 'label' }).textContent).toContain('*');
    expect(input(screen.getByRole('textbox', { name: 'Description' })).value).toBe('CT CHEST');
    expect(input(screen.getByRole('textbox', { name: 'MRN' })).disabled).toBe(true);
    expect(input(screen.getByLabelText('Study date')).value).toBe('01-15-2024'); // the user's date format, not the browser's
  });

  it('refuses to save with a required field blank and says so, without calling the server', async () => {
    renderWithRouter(<ExchangeTab study={study()} accountId="account-1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES.formMandatory)).toBeTruthy();
    expect(screen.getByText(MESSAGES.formEnterValue)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('saves changed exam fields and every custom field inside lock and unlock', async () => {
    renderWithRouter(<ExchangeTab study={study()} accountId="account-1" />);
    fireEvent.click(await screen.findByRole('radio', { name: 'Urgent' }));
    fireEvent.change(screen.getByRole('textbox', { name: /Referral reason/ }), {
      target: { value: 'Fall at home' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Description' }), { target: { value: 'CT HEAD' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES.changesSaved)).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['study/lock', 'study/set', 'study/unlock']);
    expect(Object.fromEntries([...calls[1]!.body.entries()].filter(([k]) => k !== 'sid'))).toEqual({
      uuid: 'study-x',
      study_description: 'CT HEAD',
      'customfield-cf-priority': 'Urgent',
      'customfield-cf-body': '',
      'customfield-cf-ward': '',
      'customfield-cf-reason': 'Fall at home',
    });
  });

  it('says when someone else is editing, and shows the failure text for a refused value', async () => {
    setAnswer = [412, { status: 'ERROR', error_type: 'LOCKED' }];
    renderWithRouter(<ExchangeTab study={study()} accountId="account-1" />);
    fireEvent.change(await screen.findByRole('textbox', { name: /Referral reason/ }), {
      target: { value: 'Fall' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The exam is being edited by someone else.')).toBeTruthy();
    // The study is unlocked even though the set failed.
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('study/unlock'));

    setAnswer = [412, { status: 'ERROR', error_type: 'INVALID_FIELD', error_subtype: 'customfield-cf-body' }];
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES.profileFailed)).toBeTruthy();
  });

  it('is read-only without study_edit', async () => {
    const readOnly = study();
    readOnly.permissions.study_edit = 0;
    renderWithRouter(<ExchangeTab study={readOnly} accountId="account-1" />);
    expect(input(await screen.findByRole('radio', { name: 'Urgent' })).disabled).toBe(true);
    expect(input(screen.getByRole('textbox', { name: 'Description' })).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
