import type { ApiErrorBody } from '@imaging-inbox/contract';
import { ApiError, CLIENT_ERROR_CODES } from './api-error';
import { clearSession, getSid } from './storage';

export const API_BASE = '/api/v3';

export type Params = Record<string, string | number | boolean | null | undefined>;

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => window.location.assign('/');

/** The router registers a client-side navigation so a 401 does not reload the page. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

interface CallOptions {
  /** Defaults to true: adds the stored sid (query on GET, body otherwise). */
  withSid?: boolean;
  signal?: AbortSignal;
}

function toEntries(params: Params, sid: string | null): [string, string][] {
  const entries: [string, string][] = [];
  if (sid) entries.push(['sid', sid]);
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    entries.push([key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value)]);
  }
  return entries;
}

/** Fetches an api/v3 URL; a network failure and a 401 (the session is over) end here. */
async function fetchApi(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      credentials: 'same-origin',
      headers: {
        ...init.headers,
        'X-Requested-With': 'XMLHttpRequest',
        'X-Client': `imaging-inbox-web/${__APP_VERSION__}`,
      },
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(CLIENT_ERROR_CODES.network, 0);
  }
  if (response.status === 401) {
    clearSession();
    onUnauthorized();
    throw new ApiError(CLIENT_ERROR_CODES.unauthorized, 401);
  }
  return response;
}

async function send<T>(url: string, init: RequestInit): Promise<T> {
  const response = await fetchApi(url, init);
  if (response.status === 404 || response.status === 405) {
    throw new ApiError(response.statusText || String(response.status), response.status);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(CLIENT_ERROR_CODES.unexpected, response.status);
  }
  if (response.status === 412) {
    const errorBody = body as Partial<ApiErrorBody>;
    throw new ApiError(errorBody.error_type ?? CLIENT_ERROR_CODES.unexpected, 412, body);
  }
  if (!response.ok) throw new ApiError(CLIENT_ERROR_CODES.unexpected, response.status, body);
  return body as T;
}

/** GET api/v3/{path} with the sid and params in the query string. */
export function apiGet<T>(path: string, params: Params = {}, options: CallOptions = {}): Promise<T> {
  const sid = options.withSid === false ? null : getSid();
  const query = new URLSearchParams(toEntries(params, sid)).toString();
  return send<T>(`${API_BASE}/${path}${query ? `?${query}` : ''}`, { method: 'GET', signal: options.signal });
}

/** POST api/v3/{path} as a form, with the sid in the body. */
export function apiPost<T>(path: string, params: Params = {}, options: CallOptions = {}): Promise<T> {
  const sid = options.withSid === false ? null : getSid();
  return send<T>(`${API_BASE}/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(toEntries(params, sid)).toString(),
    signal: options.signal,
  });
}

/**
 * POST api/v3/{path} as multipart (a file with its fields), with the sid in the Authorization
 * header: the server knows the caller before it reads (and stores) any of the body.
 */
export function apiPostMultipart<T>(
  path: string,
  params: Params,
  file: { name: string; blob: Blob },
  options: CallOptions = {},
): Promise<T> {
  const form = new FormData();
  for (const [key, value] of toEntries(params, null)) form.append(key, value);
  form.append(file.name, file.blob);
  const sid = getSid();
  return send<T>(`${API_BASE}/${path}`, {
    method: 'POST',
    body: form,
    headers: sid ? { Authorization: `Bearer ${sid}` } : {},
    signal: options.signal,
  });
}

/** POST api/v3/bundle: a JSON list of sub-requests answered in order. */
export function apiBundle<T>(calls: ({ URL: string } & Params)[], options: CallOptions = {}): Promise<T[]> {
  const sid = getSid();
  return send<T[]>(`${API_BASE}/bundle`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(calls.map((call) => ({ sid, ...call }))),
    signal: options.signal,
  });
}

/**
 * GET api/v3/{path} as a file (the audit log's CSV): the sid goes in the Authorization header, so it
 * is in no URL the browser keeps (history, downloads list, a Referer) or a proxy logs. Answers the
 * body as a Blob; an error answer throws as any other call does.
 */
export async function apiGetFile(path: string, params: Params, options: CallOptions = {}): Promise<Blob> {
  const sid = getSid();
  const query = new URLSearchParams(toEntries(params, null)).toString();
  const response = await fetchApi(`${API_BASE}/${path}?${query}`, {
    headers: sid ? { Authorization: `Bearer ${sid}` } : {},
    signal: options.signal,
  });
  if (response.ok) return response.blob();
  let code: string = CLIENT_ERROR_CODES.unexpected;
  try {
    code = ((await response.json()) as Partial<ApiErrorBody>).error_type ?? code;
  } catch {
    // not JSON: keep the generic code
  }
  throw new ApiError(code, response.status);
}
