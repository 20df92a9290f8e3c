import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountAnswer } from '@imaging-inbox/contract';
import { newStudy } from '../../../test/factories';
import { renderWithRouter } from '../../../test/render';
import { InboxContext, type InboxContextValue } from '../../../session/inbox-context';
import { DownloadsTab } from './DownloadsTab';

const saved = vi.hoisted(() => [] as string[]);
vi.mock('../../../lib/save-blob', () => ({ saveBlob: (_blob: Blob, name: string) => saved.push(name) }));

const urlOf = (input: RequestInfo | URL) =>
  new URL(
    input instanceof Request ? input.url : input instanceof URL ? input.href : input,
    'http://localhost',
  );

const PROFILES = [
  { uuid: 'p1', name: 'Basic Profile' },
  { uuid: 'p2', name: 'Teaching Files' },
];

/** What the archive request answers: a ZIP (with the refusal headers), or a 412 refusal. */
let archive: () => Response;

describe('DownloadsTab', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    saved.length = 0;
    archive = () => new Response(new Uint8Array([80, 75, 5, 6]), { status: 200 });
    fetchMock.mockImplementation((input) => {
      const url = urlOf(input);
      if (url.pathname.startsWith('/dicomweb/')) return Promise.resolve(new Response(null, { status: 204 }));
      if (url.pathname === '/api/v3/anonymization/list') {
        return Promise.resolve(
          Response.json({ status: 'OK', profiles: PROFILES, page: { number: 1, rows: 2, total: 2 } }),
        );
      }
      if (url.pathname.endsWith('/download')) return Promise.resolve(archive());
      return Promise.resolve(Response.json({}, { status: 404 }));
    });
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.setItem('sid', 'S1');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  const inbox = { account: { uuid: 'account-1' } as AccountAnswer } as InboxContextValue;
  const render = (deidentify: 0 | 1) => {
    const study = newStudy();
    study.permissions.study_download_anonymized = deidentify;
    renderWithRouter(
      <InboxContext.Provider value={inbox}>
        <DownloadsTab studies={[study]} />
      </InboxContext.Provider>,
    );
    return study;
  };
  const downloads = () =>
    fetchMock.mock.calls.map(([input]) => urlOf(input)).filter((u) => u.pathname.endsWith('/download'));

  it('hides De-identify without study_download_anonymized, and downloads the exam as it is', async () => {
    render(0);
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await screen.findByText('Download complete');
    expect(screen.queryByRole('checkbox', { name: 'De-identify' })).toBeNull();
    expect(fetchMock.mock.calls.some(([i]) => urlOf(i).pathname.includes('anonymization'))).toBe(false);
    const [url] = downloads();
    expect(url!.searchParams.has('anonymize')).toBe(false);
    expect(url!.searchParams.has('anonymization_id')).toBe(false);
  });

  it('downloads de-identified by the chosen profile, and says what was left out', async () => {
    archive = () =>
      new Response(new Uint8Array([80, 75, 5, 6]), {
        status: 200,
        headers: {
          'X-Deidentification-Refused-Burned-In': '2',
          'X-Deidentification-Refused-Unreadable': '0',
        },
      });
    render(1);
    const box = await screen.findByRole('checkbox', { name: 'De-identify' });
    await waitFor(() => expect((box as HTMLInputElement).disabled).toBe(false));
    expect(screen.queryByLabelText('De-identification profile')).toBeNull();
    fireEvent.click(box);
    // The first profile is chosen; pick the second one.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'De-identification profile' }));
    fireEvent.click(
      within(await screen.findByRole('listbox')).getByRole('option', { name: 'Teaching Files' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(
      await screen.findByText(
        'Download complete. 2 images that may show burned-in patient text were left out.',
      ),
    ).toBeTruthy();
    const [url] = downloads();
    expect(url!.searchParams.get('anonymize')).toBe('1');
    expect(url!.searchParams.get('anonymization_id')).toBe('p2');
    // The session goes in a header, in no URL a proxy logs.
    expect(url!.searchParams.has('sid')).toBe(false);
    const [, init] = fetchMock.mock.calls.find(([input]) => urlOf(input).pathname.endsWith('/download'))!;
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer S1');
    expect(saved).toHaveLength(1);

    // Unticked, the next download is the identified one again.
    fireEvent.click(screen.getByRole('checkbox', { name: 'De-identify' }));
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(downloads()).toHaveLength(2));
    expect(downloads()[1]!.searchParams.has('anonymize')).toBe(false);
  });

  it('says in words why a de-identified download was refused for burned-in text', async () => {
    archive = () =>
      Response.json(
        {
          status: 'ERROR',
          error_type: 'NOT_PERMITTED',
          error_subtype: 'burned_in_text',
          error_data: { refused: 3 },
        },
        { status: 412 },
      );
    render(1);
    const box = await screen.findByRole('checkbox', { name: 'De-identify' });
    await waitFor(() => expect((box as HTMLInputElement).disabled).toBe(false));
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    expect(
      await screen.findByText(
        'Not downloaded: every image of this exam may show burned-in patient text, which de-identification cannot remove.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/NOT_PERMITTED|burned_in_text/)).toBeNull();
    expect(saved).toHaveLength(0);
  });

  it('keeps De-identify disabled, with the reason, when no profile can be listed', async () => {
    fetchMock.mockImplementation((input) => {
      const url = urlOf(input);
      if (url.pathname === '/api/v3/anonymization/list')
        return Promise.resolve(
          Response.json({ status: 'ERROR', error_type: 'NOT_PERMITTED' }, { status: 412 }),
        );
      return Promise.resolve(new Response(null, { status: 204 }));
    });
    render(1);
    expect(await screen.findByText('No de-identification profile is available to you.')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'De-identify' }).disabled).toBe(true);
  });
});
