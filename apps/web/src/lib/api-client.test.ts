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

  it('builds a link from a path of the call map, its route segments and parameters', () => {
    expect(
      api.url('storage/study/:storage_namespace/:study_uid/attachment/:id/version/:version/:filename?', {
        route: { storage_namespace: 'ns 1', study_uid: '1.2', id: 'a', version: '2', filename: 'r é.pdf' },
        params: { phi_namespace: 'p', disposition: 'inline' },
      }),
    ).toBe(
      '/api/v3/storage/study/ns%201/1.2/attachment/a/version/2/r%20%C3%A9.pdf?sid=S1&phi_namespace=p&disposition=inline',
    );
    expect(api.url('send/public/download', { params: { grant: 'g/1' }, withSid: false })).toBe(
      '/api/v3/send/public/download?grant=g%2F1',
    );
  });

  it('opens a file with the sid in the Authorization header and throws a refusal with its body', async () => {
    fetchMock.mockResolvedValue(new Response('PK', { status: 200 }));
    const response = await api.open('study/download', { params: { uuids: '["u1"]', bundle: 'dicom' } });
    expect(await response.text()).toBe('PK');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v3/study/download?uuids=%5B%22u1%22%5D&bundle=dicom');
    expect((init?.headers as Record<string, string>)['Authorization']).toBe('Bearer S1');
    const refusal = { status: 'ERROR', error_type: 'NOT_PERMITTED', error_subtype: 'burned_in_text' };
    fetchMock.mockResolvedValue(answer(412, refusal));
    await expect(api.open('study/download', { params: { uuids: '["u1"]' } })).rejects.toMatchObject({
      code: 'NOT_PERMITTED',
      status: 412,
      body: refusal,
    });
  });

  it('ends the session on a 401 from a file, a delete or a last word sent as the page unloads', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    fetchMock.mockImplementation(() => Promise.resolve(answer(401, { status: 'ERROR' })));
    await expect(api.open('study/download', { params: { uuids: '[]' } })).rejects.toBeInstanceOf(ApiError);
    sessionStorage.setItem('sid', 'S1');
    await expect(
      api.delete('storage/study/:storage_namespace/:study_uid/attachment/:id', {
        route: { storage_namespace: 'n', study_uid: 's', id: 'a' },
      }),
    ).rejects.toBeInstanceOf(ApiError);
    sessionStorage.setItem('sid', 'S1');
    await expect(
      api.call('study/sync', { uuid: 'u', image_count: 1 }, { keepalive: true }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(3);
    expect(fetchMock.mock.calls[1]?.[1]?.method).toBe('DELETE');
    expect(fetchMock.mock.calls[2]?.[1]?.keepalive).toBe(true);
    expect(sessionStorage.getItem('sid')).toBeNull();
  });

  it('rejects other statuses as unexpected', async () => {
    fetchMock.mockResolvedValue(answer(500, { boom: 1 }));
    await expect(api.get('session/user')).rejects.toMatchObject({ code: 'UNEXPECTED_ERROR', status: 500 });
  });
});
