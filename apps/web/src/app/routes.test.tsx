import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { demoApi } from '../test/demo-api';
import { renderRoutes } from '../test/render';
import { routes } from './router';

describe('routes', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the fixed not-found message on unknown paths', async () => {
    renderRoutes(routes, '/no/such/page');
    expect(
      await screen.findByText('You reached this page by mistake. Please go back and try again.'),
    ).toBeTruthy();
  });

  it('sends a visitor without a session to sign-in', async () => {
    const { router } = renderRoutes(routes, '/group/list');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('closes the inbox (/404) when enable_inbox_view is not 1', async () => {
    sessionStorage.setItem('sid', 'S1');
    vi.stubGlobal('fetch', demoApi({ inboxView: '0' }).fetch);
    const { router } = renderRoutes(routes, '/group/list');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(await screen.findByText('No suitable account found')).toBeTruthy();
  });

  it('redirects a group without state to its first state', async () => {
    sessionStorage.setItem('sid', 'S1');
    vi.stubGlobal('fetch', demoApi().fetch);
    const { router } = renderRoutes(routes, '/group/g-gate');
    await waitFor(() => expect(router.state.location.pathname).toBe('/group/g-gate/Nominations'));
  });

  it('redirects an unknown group to the first state of the first group', async () => {
    sessionStorage.setItem('sid', 'S1');
    vi.stubGlobal('fetch', demoApi().fetch);
    const { router } = renderRoutes(routes, '/group/unknown');
    await waitFor(() => expect(router.state.location.pathname).toBe('/group/g-lib/Inbox'));
  });

  it('lands on /group/list with the first state of the first group highlighted and listed', async () => {
    sessionStorage.setItem('sid', 'S1');
    const api = demoApi();
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes(routes, '/group/list');
    expect(await screen.findByText('PATIENT, NUMBER1')).toBeTruthy();
    const current = screen.getByRole('link', { current: 'page' });
    expect(current.textContent).toBe('Inbox');
    expect(current.getAttribute('href')).toBe('/group/g-lib/Inbox');
    const list = api.calls.find((c) => c.path === 'study/list');
    expect(list?.params.get('filter.phi_namespace.equals')).toBe('ns-t');
    expect(list?.params.get('sort_by')).toBe('created-desc');
    expect(list?.params.get('page.rows')).toBe('50');
    expect(screen.getByTestId('study-total').textContent).toContain('3 exams');
  });

  it('searches by patient name and shows the Summary of a study', async () => {
    sessionStorage.setItem('sid', 'S1');
    const api = demoApi();
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes(routes, '/group/g-cloud/Inbox');
    await screen.findByText('PATIENT, NUMBER2');
    fireEvent.change(screen.getByLabelText('Patient name'), { target: { value: 'NUMBER2' } });
    fireEvent.click(within(screen.getByRole('search')).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.queryByText('PATIENT, NUMBER1')).toBeNull());
    expect(
      api.calls.at(-1)?.params.get('filter.patient_name.like') ??
        api.calls.at(-2)?.params.get('filter.patient_name.like'),
    ).toBe('%NUMBER2%');
    fireEvent.click(screen.getByRole('button', { name: 'Open PATIENT, NUMBER2' }));
    expect(await screen.findByRole('tab', { name: 'Summary' })).toBeTruthy();
    expect(screen.getByText('Patient demographics')).toBeTruthy();
    expect(screen.getByText('Exam information')).toBeTruthy();
  });

  it('shows No results found! for an empty list', async () => {
    sessionStorage.setItem('sid', 'S1');
    vi.stubGlobal('fetch', demoApi({ studies: 0 }).fetch);
    renderRoutes(routes, '/group/g-cloud/Shared');
    expect(await screen.findByText('No results found!')).toBeTruthy();
  });

  it('offers multi-select in cloud groups but not in gatekeeper groups', async () => {
    sessionStorage.setItem('sid', 'S1');
    vi.stubGlobal('fetch', demoApi().fetch);
    const { router } = renderRoutes(routes, '/group/g-cloud/Inbox');
    await screen.findByText('PATIENT, NUMBER1');
    expect(screen.getAllByRole('checkbox', { name: /^Select / })).toHaveLength(3);
    await router.navigate('/group/g-gate/Queued');
    await screen.findByText('PACS Intake · Queued');
    expect(screen.queryAllByRole('checkbox', { name: /^Select / })).toHaveLength(0);
  });

  it('never lets an older, slower answer overwrite a newer search', async () => {
    sessionStorage.setItem('sid', 'S1');
    // The first search (NUMBER1) answers late; the second (NUMBER2) answers at once.
    const api = demoApi({
      delay: (path, body) =>
        path === 'study/list' && body.get('filter.patient_name.like') === '%NUMBER1%' ? 400 : 0,
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes(routes, '/group/g-cloud/Inbox');
    await screen.findByText('PATIENT, NUMBER3');
    const box = screen.getByLabelText('Patient name');
    const search = within(screen.getByRole('search')).getByRole('button', { name: 'Search' });
    fireEvent.change(box, { target: { value: 'NUMBER1' } });
    fireEvent.click(search);
    fireEvent.change(box, { target: { value: 'NUMBER2' } });
    fireEvent.click(search);
    await screen.findByRole('button', { name: 'Open PATIENT, NUMBER2' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.queryByRole('button', { name: 'Open PATIENT, NUMBER1' })).toBeNull();
    expect(screen.getAllByTestId('study-card')).toHaveLength(1);
  });
});
