// @vitest-environment jsdom
import { emptyPatientForm } from '@imaging-inbox/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUnauthorizedHandler } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { uploadImage } from './upload-image';
import { linkUploadApi, signedInUploadApi } from './upload-session';
import { wrapFile } from './wrap-file';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const FORM = {
  ...emptyPatientForm,
  firstName: 'Ann',
  lastName: 'Lee',
  patientDOB: '1984-03-07',
  patientMRN: 'MRN-1',
  patientGender: 'F',
  studyDate: '2026-05-04',
  studyTime: '14:05',
  studyDescription: 'Scan',
};

describe('upload calls go through the one api client', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const onUnauthorized = vi.fn();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    sessionStorage.setItem('sid', 'S1');
    setUnauthorizedHandler(onUnauthorized);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    onUnauthorized.mockReset();
    sessionStorage.clear();
  });

  it.each([
    ['a chunk', () => signedInUploadApi('ns-1').chunk('up-1', 0, new Blob([new Uint8Array(8)]))],
    ['a session step', () => signedInUploadApi('ns-1').create(8)],
    ['a whole file', () => uploadImage('ns-1', new Blob([new Uint8Array(8)]))],
    ['a document to wrap', () => wrapFile('ns-1', FORM, new File(['%PDF'], 'a.pdf'), null)],
  ])('a 401 on %s ends the session through the same unauthorized path as any call', async (_, send) => {
    sessionStorage.setItem('worklist:lastSearch', '{}');
    fetchMock.mockResolvedValue(answer(401, { status: 'ERROR', error_type: 'EXPIRED' }));
    await expect(send()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(onUnauthorized).toHaveBeenCalledOnce();
    expect(sessionStorage.length).toBe(0);
  });

  it('sends the session in the Authorization header and the parameters in the query', async () => {
    fetchMock.mockResolvedValue(answer(200, { status: 'OK', id: 'up-1', offset: 8 }));
    await signedInUploadApi('ns-1').chunk('up-1', 16, new Blob([new Uint8Array(8)]));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v3/upload/session/chunk?id=up-1&offset=16');
    expect(init?.method).toBe('PUT');
    const headers = init?.headers as Record<string, string>;
    expect(headers['Authorization']).toBe('Bearer S1');
    expect(headers['Content-Type']).toBe('application/octet-stream');
  });

  it('fills the path of a whole file and keeps the error_type of a refused size', async () => {
    fetchMock.mockResolvedValue(answer(413, { status: 'ERROR', error_type: 'FILE_TOO_LARGE' }));
    const sent = uploadImage('ns/1', new Blob([new Uint8Array(8)]));
    await expect(sent).rejects.toBeInstanceOf(ApiError);
    await expect(sent).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', status: 413 });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v3/storage/namespace/ns%2F1/image');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("sends a request link's grant and never the session", async () => {
    fetchMock.mockResolvedValue(answer(202, { status: 'OK', uuid: 's-1' }));
    await linkUploadApi('G1').whole(new Blob([new Uint8Array(8)]));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v3/link/public/upload');
    const headers = init?.headers as Record<string, string>;
    expect(headers['X-Link-Grant']).toBe('G1');
    expect(headers['Authorization']).toBeUndefined();
  });
});
