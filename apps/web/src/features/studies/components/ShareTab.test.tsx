import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { newStudy } from '../../../test/factories';
import { renderWithRouter } from '../../../test/render';
import { ShareTab } from './ShareTab';

const urlOf = (input: RequestInfo | URL) =>
  new URL(
    input instanceof Request ? input.url : input instanceof URL ? input.href : input,
    'http://localhost',
  );
const bodyOf = (init?: RequestInit) =>
  JSON.parse(typeof init?.body === 'string' ? init.body : '[]') as unknown[];

function json(body: unknown, status = 200) {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

/** What each study/share of a bundle answers (OK unless a test says otherwise). */
let shareAnswer: () => unknown = () => ({ status: 'OK' });

describe('ShareTab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const bundles: unknown[] = [];
  beforeEach(() => {
    bundles.length = 0;
    shareAnswer = () => ({ status: 'OK' });
    fetchMock.mockImplementation((input, init) => {
      const url = urlOf(input);
      const path = url.pathname.replace('/api/v3/', '');
      if (path === 'study/share/who') {
        return url.searchParams.get('type') === 'group'
          ? json({
              status: 'OK',
              groups: [{ uuid: 'g1', name: 'Cardiology', namespace_id: 'n1', type: 'CLOUD' }],
            })
          : json({
              status: 'OK',
              users: [{ uuid: 'u1', name: 'Ada Admin', user_email: 'admin@demo.local' }],
            });
      }
      if (path === 'study/share/list')
        return json({ status: 'OK', shares: [], owner: { namespace_id: 'n0', name: 'Emergency' } });
      if (path === 'bundle') {
        const calls = bodyOf(init);
        bundles.push(calls);
        return json(calls.map(() => shareAnswer()));
      }
      return json({}, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.setItem('sid', 'S1');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('says Content is not permitted without user or group share permissions', () => {
    const study = newStudy();
    study.permissions.study_share_user = 0;
    study.permissions.study_share_group = 0;
    renderWithRouter(<ShareTab studies={[study]} />);
    expect(screen.getByText('Content is not permitted')).toBeTruthy();
  });

  it('needs a recipient, trims the message and reports success', async () => {
    const study = newStudy();
    renderWithRouter(<ShareTab studies={[study]} />);
    expect(await screen.findByText('This exam is not currently shared')).toBeTruthy();
    // The exam's owner is the fixed first entry of the list, with nothing to stop.
    const list = screen.getByRole('list', { name: 'Shared with' });
    expect(list.textContent).toMatch(/^EmergencyExam owner/);
    expect(screen.queryByRole('button', { name: /Stop sharing with Emergency/ })).toBeNull();
    const button = screen.getByRole('button', { name: 'Share' });
    expect((button as HTMLButtonElement).disabled).toBe(true);

    fireEvent.mouseDown(screen.getByLabelText('Groups'));
    fireEvent.click(await screen.findByRole('option', { name: 'Cardiology' }));
    expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: '  look  ' } });
    fireEvent.click(button);
    expect(await screen.findByText('Exam successfully shared.')).toBeTruthy();
    expect(bundles[0]).toEqual([
      { sid: 'S1', URL: 'study/share', uuid: study.uuid, group_id: 'g1', message: 'look' },
    ]);
  });

  it('sends no message when it is blank and reports a failed share', async () => {
    fetchMock.mockImplementation((input, init) => {
      const url = urlOf(input);
      if (url.pathname.endsWith('bundle')) {
        bundles.push(bodyOf(init));
        return json([{ status: 'ERROR', error_type: 'NOT_FOUND' }]);
      }
      if (url.pathname.endsWith('share/list'))
        return json({ status: 'OK', shares: [], owner: { namespace_id: 'n0', name: 'Emergency' } });
      return json({ status: 'OK', users: [{ uuid: 'u1', name: 'Ada', user_email: 'a@x' }], groups: [] });
    });
    const study = newStudy();
    renderWithRouter(<ShareTab studies={[study]} />);
    fireEvent.mouseDown(screen.getByLabelText('Users'));
    fireEvent.click(await screen.findByRole('option', { name: 'Ada <a@x>' }));
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Failed to share exam.')).toBeTruthy();
    await waitFor(() => expect(bundles).toHaveLength(1));
    expect(bundles[0]).toEqual([{ sid: 'S1', URL: 'study/share', uuid: study.uuid, user_id: 'u1' }]);
  });

  /** Shares the study into the Cardiology group through the form. */
  const shareIntoGroup = async () => {
    const study = newStudy();
    renderWithRouter(<ShareTab studies={[study]} />);
    fireEvent.mouseDown(screen.getByLabelText('Groups'));
    fireEvent.click(await screen.findByRole('option', { name: 'Cardiology' }));
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
  };

  it('says in words that a de-identifying group refused the exam for burned-in text', async () => {
    shareAnswer = () => ({
      status: 'ERROR',
      error_type: 'NOT_PERMITTED',
      error_subtype: 'burned_in_text',
      error_data: { refused: 4 },
    });
    await shareIntoGroup();
    expect(
      await screen.findByText(
        'Not shared: every image of this exam may show burned-in patient text, which de-identification cannot remove.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Failed to share exam.')).toBeNull();
    expect(screen.queryByText(/NOT_PERMITTED|burned_in_text/)).toBeNull();
    // The recipient stays chosen: nothing was shared.
    expect(screen.getByRole('button', { name: 'Cardiology' })).toBeTruthy();
  });

  it('says which files a de-identifying group left out of its copy', async () => {
    shareAnswer = () => ({
      status: 'OK',
      deidentified: {
        profile: 'Teaching Files',
        instances: 10,
        refused_burned_in: 2,
        refused_unreadable: 1,
        reports_left_out: 0,
      },
    });
    await shareIntoGroup();
    expect(
      await screen.findByText(
        'Shared de-identified. 2 images that may show burned-in patient text were left out. 1 file that could not be de-identified was left out.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Exam successfully shared.')).toBeNull();
  });

  it('says a plain success when the de-identified copy left nothing out', async () => {
    shareAnswer = () => ({
      status: 'OK',
      deidentified: {
        profile: 'P',
        instances: 3,
        refused_burned_in: 0,
        refused_unreadable: 0,
        reports_left_out: 0,
      },
    });
    await shareIntoGroup();
    expect(await screen.findByText('Exam successfully shared.')).toBeTruthy();
    expect(screen.queryByText(/left out/)).toBeNull();
  });
});
