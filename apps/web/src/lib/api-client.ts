import type { ApiAnswer, ApiErrorBody, ApiParams, ApiPath, ApiPathParams } from '@imaging-inbox/contract';
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
  /** Sent even as the page unloads (fetch's keepalive): a last word no one waits for. */
  keepalive?: boolean;
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
function apiGet<T>(path: string, params: Params = {}, options: CallOptions = {}): Promise<T> {
  const sid = options.withSid === false ? null : getSid();
  const query = new URLSearchParams(toEntries(params, sid)).toString();
  return send<T>(`${API_BASE}/${path}${query ? `?${query}` : ''}`, { method: 'GET', signal: options.signal });
}

/** POST api/v3/{path} as a form, with the sid in the body. */
function apiPost<T>(path: string, params: Params = {}, options: CallOptions = {}): Promise<T> {
  const sid = options.withSid === false ? null : getSid();
  return send<T>(`${API_BASE}/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(toEntries(params, sid)).toString(),
    signal: options.signal,
    ...(options.keepalive ? { keepalive: true } : {}),
  });
}

/**
 * POST api/v3/{path} as multipart (a file with its fields), with the sid in the Authorization
 * header: the server knows the caller before it reads (and stores) any of the body.
 */
function apiPostMultipart<T>(
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
function apiBundle<T>(calls: ({ URL: string } & Params)[], options: CallOptions = {}): Promise<T[]> {
  const sid = getSid();
  return send<T[]>(`${API_BASE}/bundle`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(calls.map((call) => ({ sid, ...call }))),
    signal: options.signal,
  });
}

/**
 * GET api/v3/{path} as a file to read as it arrives (an archive counted for progress, the audit
 * log's CSV): the sid goes in the Authorization header, so it is in no URL the browser keeps
 * (history, downloads list, a Referer) or a proxy logs. Answers the response once it is OK; an
 * error answer throws with its error_type and body (a refusal's subtype says why).
 */
async function apiGetResponse(path: string, params: Params, options: CallOptions = {}): Promise<Response> {
  const sid = options.withSid === false ? null : getSid();
  const query = new URLSearchParams(toEntries(params, null)).toString();
  const response = await fetchApi(`${API_BASE}/${path}${query ? `?${query}` : ''}`, {
    headers: sid ? { Authorization: `Bearer ${sid}` } : {},
    signal: options.signal,
  });
  if (response.ok) return response;
  let code: string = CLIENT_ERROR_CODES.unexpected;
  let body: Partial<ApiErrorBody> | undefined;
  try {
    body = (await response.json()) as Partial<ApiErrorBody>;
    code = body.error_type ?? code;
  } catch {
    // not JSON: keep the generic code
  }
  throw new ApiError(code, response.status, body);
}

/** What an upload call sends besides its path (docs/api-v3.md "Upload sessions"). */
export interface UploadRequest<P extends ApiPath> {
  /** The path's `:name` segments (`storage/namespace/:namespace_id/image`). */
  route?: ApiPathParams<P>;
  /** Parameters, in the query string (the body is the file). */
  params?: ApiParams<P>;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The file itself (raw) or a form holding it. */
  body?: Blob | FormData;
  /** Of a raw body (`application/dicom`, `application/octet-stream`); a form sets its own. */
  contentType?: string;
  /** A request link's grant (`X-Link-Grant`): its calls carry no session. */
  linkGrant?: string;
  signal?: AbortSignal;
}

/** `storage/namespace/:namespace_id/image` with `{ namespace_id: 'n1' }` → `storage/namespace/n1/image`. */
function fillRoute(path: string, route: Record<string, string | undefined> = {}): string {
  return path.replace(/:([a-z_]+)\??/g, (_, name: string) => encodeURIComponent(route[name] ?? ''));
}

/**
 * An upload call (whole file, chunk, session step, wrap). It goes through the same `fetchApi` as
 * every call, so a 401 ends the session the same way (`onUnauthorized()`); unlike a form call it
 * takes 200–202 and keeps the `error_type` of any refusal (412, 413 for sizes, 429), since the
 * upload queue decides per error whether to retry. An abort rethrows the AbortError.
 */
async function upload<P extends ApiPath>(path: P, request: UploadRequest<P>): Promise<ApiAnswer<P>> {
  const sid = request.linkGrant === undefined ? getSid() : null;
  const query = new URLSearchParams(toEntries(request.params ?? {}, null)).toString();
  const headers: Record<string, string> = {};
  if (sid) headers['Authorization'] = `Bearer ${sid}`;
  if (request.linkGrant !== undefined) headers['X-Link-Grant'] = request.linkGrant;
  if (request.contentType) headers['Content-Type'] = request.contentType;
  const url = `${API_BASE}/${fillRoute(path, request.route)}`;
  const response = await fetchApi(query ? `${url}?${query}` : url, {
    method: request.method ?? 'POST',
    headers,
    body: request.body,
    signal: request.signal,
  });
  const body = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
  if (response.status < 200 || response.status > 202) {
    throw new ApiError(body.error_type ?? CLIENT_ERROR_CODES.unexpected, response.status, body);
  }
  return body as ApiAnswer<P>;
}

/** What a file call (`api.open`) or a link (`api.url`) sends besides its path. */
export interface FileRequest<P extends ApiPath> {
  /** The path's `:name` segments. */
  route?: ApiPathParams<P>;
  params?: ApiParams<P>;
  /** Defaults to true. A link carries the sid in its query (a browser's navigation sends no header). */
  withSid?: boolean;
  signal?: AbortSignal;
}

/**
 * The address of a call the browser itself goes to (an attachment opened in a tab, the sign-in
 * provider's start, a visitor's ZIP): typed by the call map like every call. A link cannot carry a
 * header, so its sid rides in the query: prefer `api.open` where the page can fetch the file.
 */
function apiUrl<P extends ApiPath>(path: P, request: Omit<FileRequest<P>, 'signal'> = {}): string {
  const sid = request.withSid === false ? null : getSid();
  const query = new URLSearchParams(toEntries(request.params ?? {}, sid)).toString();
  const url = `${API_BASE}/${fillRoute(path, request.route)}`;
  return query ? `${url}?${query}` : url;
}

/** One sub-request of a bundle: a call's path as `URL` and its parameters. */
export type BundleCall = { [P in ApiPath]: { URL: P } & ApiParams<P> }[ApiPath];

/**
 * The one api/v3 client, typed by the contract's call map (`API_CALLS`): a path the server does not
 * register fails to type-check, its parameters are the names its request schema reads, and the
 * answer has the map's type. Every call goes through `fetchApi`, so a 401 clears the session and
 * calls the unauthorized handler wherever it comes from.
 */
export const api = {
  /** POST api/v3/{path} as a form, with the sid in the body. */
  call: <P extends ApiPath>(path: P, params?: ApiParams<P>, options?: CallOptions): Promise<ApiAnswer<P>> =>
    apiPost<ApiAnswer<P>>(path, params, options),
  /** GET api/v3/{path} with the sid and the parameters in the query string. */
  get: <P extends ApiPath>(path: P, params?: ApiParams<P>, options?: CallOptions): Promise<ApiAnswer<P>> =>
    apiGet<ApiAnswer<P>>(path, params, options),
  /** A call's answer as a file (a CSV export), the sid in the Authorization header. */
  file: async <P extends ApiPath>(path: P, params: ApiParams<P>, options?: CallOptions): Promise<Blob> =>
    (await apiGetResponse(path, params, options)).blob(),
  /** A call's answer as a response to read as it streams (an archive with progress), the sid in a header. */
  open: <P extends ApiPath>(path: P, request: FileRequest<P> = {}): Promise<Response> =>
    apiGetResponse(fillRoute(path, request.route), request.params ?? {}, request),
  /** The address of a call the browser goes to itself (a link); see apiUrl. */
  url: apiUrl,
  /** POST api/v3/{path} as multipart: one file with its fields, the sid in the Authorization header. */
  multipart: <P extends ApiPath>(
    path: P,
    params: ApiParams<P>,
    file: { name: string; blob: Blob },
    options?: CallOptions,
  ): Promise<ApiAnswer<P>> => apiPostMultipart<ApiAnswer<P>>(path, params, file, options),
  /** POST api/v3/bundle: sub-requests answered in order (each answer typed by the caller). */
  bundle: <T>(calls: BundleCall[], options?: CallOptions): Promise<T[]> => apiBundle<T>(calls, options),
  upload,
  /** A call on DELETE (an attachment), answered and refused as an upload call is. */
  delete: <P extends ApiPath>(
    path: P,
    request: Omit<UploadRequest<P>, 'method' | 'body' | 'contentType'> = {},
  ) => upload(path, { ...request, method: 'DELETE' }),
};
