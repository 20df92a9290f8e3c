// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, setUnauthorizedHandler } from './api-client';
import { ApiError } from './api-error';

function answer(status: number, body: unknown, statusText = '') {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('api client', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.setItem('sid', 'S1');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    sessionStorage.clear();
  });

  it('puts the sid in the query on GET', async () => {
    fetchMock.mockResolvedValue(answer(200, { status: 'OK', ttl: 5 }));
    await expect(api.get('tag/list', { 'page.rows': 5, object: undefined })).resolves.toEqual({
      status: 'OK',
      ttl: 5,
    });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v3/tag/list?sid=S1&page.rows=5');
  });

  it('posts a form with the sid in the body', async () => {
    fetchMock.mockResolvedValue(answer(200, { status: 'OK' }));
    await api.call('study/list', { 'page.rows': 50, 'filter.patient_name.like': '%DOE%' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v3/study/list');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe(
      'application/x-www-form-urlencoded',
    );
    expect(init?.body).toBe('sid=S1&page.rows=50&filter.patient_name.like=%25DOE%25');
  });

  it('can leave the sid out (login)', async () => {
    fetchMock.mockResolvedValue(answer(200, { status: 'OK' }));
    await api.call('session/login', { login: 'a', password: 'b' }, { withSid: false });
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('login=a&password=b');
  });

  it('rejects a 412 with its error_type', async () => {
    fetchMock.mockResolvedValue(answer(412, { status: 'ERROR', error_type: 'BAD_PASSWORD' }));
    await expect(api.call('session/login', {})).rejects.toMatchObject({ code: 'BAD_PASSWORD', status: 412 });
  });

  it('clears storage and goes to / on 401', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    sessionStorage.setItem('worklist:lastSearch', '{}');
    fetchMock.mockResolvedValue(answer(401, { status: 'ERROR' }));
    await expect(api.get('session/user')).rejects.toBeInstanceOf(ApiError);
    expect(sessionStorage.length).toBe(0);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('rejects 404 and 405 with the status text', async () => {
    fetchMock.mockResolvedValue(answer(404, {}, 'Not Found'));
    // @ts-expect-error a path the contract's call map does not name does not type-check
    await expect(api.get('nope')).rejects.toMatchObject({ code: 'Not Found', status: 404 });
    fetchMock.mockResolvedValue(answer(405, {}, 'Method Not Allowed'));
    await expect(api.get('session/user')).rejects.toMatchObject({ code: 'Method Not Allowed' });
  });

  it('rejects a network failure with the network error code', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(api.get('session/user')).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('rejects other statuses as unexpected', async () => {
    fetchMock.mockResolvedValue(answer(500, { boom: 1 }));
    await expect(api.get('session/user')).rejects.toMatchObject({ code: 'UNEXPECTED_ERROR', status: 500 });
  });
});
