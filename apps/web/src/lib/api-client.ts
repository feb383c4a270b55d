import { flattenErrors, ja, type ErrorEnvelope } from '@tenpo/domain';
import { API_BASE, apiKey } from './env';
import { storage } from './storage';

/** API time-out of spec 1 §9. */
export const API_TIMEOUT_MS = 60_000;

/** Every non-2xx answer (and a network failure or time-out, status 0) becomes one typed error. */
export class ApiError extends Error {
  readonly status: number;
  readonly envelope: Partial<ErrorEnvelope> | null;
  /** The errors flattened to lines, with the generic 500 message as fallback (spec 1 §8). */
  readonly lines: string[];

  constructor(status: number, envelope: Partial<ErrorEnvelope> | null) {
    const lines = flattenErrors(envelope, ja.serverError);
    super(lines.join('\n'));
    this.name = 'ApiError';
    this.status = status;
    this.envelope = envelope;
    this.lines = lines;
  }

  fieldErrors(): Record<string, string[]> {
    return this.envelope?.errors ?? {};
  }
}

/** The lines to show for any failure: the server's errors, else the generic 500 message. */
export const errorLines = (e: unknown): string[] =>
  e instanceof ApiError ? e.lines : [ja.serverError];

export type Envelope<T> = { status_code: number; message?: string; data: T };

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData as multipart. */
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
  /** A 401 from this call does not log out (the login call itself). */
  noAuthRedirect?: boolean;
};

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};
/** The session registers what a 401 outside the login page does (log out, go to /login). */
export const setUnauthorizedHandler = (h: UnauthorizedHandler): void => {
  onUnauthorized = h;
};

// Token rotation (GET /refresh-token) revokes the token in use at once, so a request that is
// still travelling with the old token would come back 401. Ordinary requests share the road;
// a rotation waits until they have all arrived and holds new ones until it is done.
let inflight = 0;
let gate: Promise<void> | null = null;
const drained: Array<() => void> = [];

const enter = async (): Promise<void> => {
  while (gate) await gate;
  inflight += 1;
};
const leave = (): void => {
  inflight -= 1;
  if (inflight === 0) for (const f of drained.splice(0)) f();
};

// The tabs of one browser share the token in local storage, so a rotation in one tab revokes
// the token that another tab's calls are carrying. Rotations hold this Web Lock, so two tabs
// never rotate at once, and a call refused meanwhile can wait for the rotation to end and try
// again with the token it stored (jsdom and old browsers have no Web Locks: no cross-tab wait).
const ROTATION_LOCK = 'tenpo-token-rotation';

/**
 * How long a tab waits for the rotation lock before going on without it. A rotation takes
 * milliseconds; a lock held longer belongs to a page being unloaded mid-rotation, and waiting
 * for it would hang this page's first call.
 */
const LOCK_WAIT_MS = 3000;

/** Runs `fn` while holding the cross-tab rotation lock (or without it, after LOCK_WAIT_MS). */
export const acrossTabs = async <T>(fn: () => Promise<T>): Promise<T> => {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return fn();
  let ran = false;
  try {
    // `request` resolves with what the callback returns; lib.dom types it as Promise<Promise<T>>.
    return (await locks.request(
      ROTATION_LOCK,
      { signal: AbortSignal.timeout(LOCK_WAIT_MS) },
      () => {
        ran = true;
        return fn();
      },
    )) as T;
  } catch (e) {
    if (ran) throw e;
    return fn();
  }
};

/** Resolves once no tab is rotating. */
const rotationSettled = (): Promise<void> => acrossTabs(async () => {});

/** Runs `fn` alone: no other call is in flight while it runs. */
export const exclusive = async <T>(fn: () => Promise<T>): Promise<T> => {
  while (gate) await gate;
  let release: () => void = () => {};
  gate = new Promise<void>((r) => {
    release = r;
  });
  try {
    if (inflight > 0) await new Promise<void>((r) => drained.push(r));
    return await fn();
  } finally {
    gate = null;
    release();
  }
};

const buildUrl = (path: string, query: RequestOptions['query']): string => {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  }
  const s = qs.toString();
  return `${API_BASE}${path}${s ? `?${s}` : ''}`;
};

// The token is read from storage on every call, never cached: another tab may have rotated it.
const send = async (
  path: string,
  opts: RequestOptions,
  accept: string,
  token: string | null,
): Promise<Response> => {
  const headers: Record<string, string> = { Accept: accept, 'X-Api-Key': apiKey() };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }

  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), API_TIMEOUT_MS);
  const outer = opts.signal;
  const onAbort = () => ctrl.abort();
  if (outer) {
    if (outer.aborted) ctrl.abort();
    else outer.addEventListener('abort', onAbort, { once: true });
  }
  try {
    return await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body,
      signal: ctrl.signal,
    });
  } catch (e) {
    if (outer?.aborted) throw e;
    throw new ApiError(0, null);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
};

const failure = async (res: Response, opts: RequestOptions): Promise<ApiError> => {
  let envelope: Partial<ErrorEnvelope> | null;
  try {
    envelope = (await res.json()) as Partial<ErrorEnvelope>;
  } catch {
    envelope = null;
  }
  if (res.status === 401 && !opts.noAuthRedirect && window.location.pathname !== '/login') {
    onUnauthorized();
  }
  return new ApiError(res.status, envelope);
};

const call = async <T>(
  path: string,
  opts: RequestOptions,
  read: (r: Response) => Promise<T>,
  accept: string,
  raw: boolean,
): Promise<T> => {
  if (!raw) await enter();
  try {
    const token = storage.get('token');
    let res = await send(path, opts, accept, token);
    // A 401 for a token that another tab has just rotated is not a logout: the new token is (or
    // will be, once that tab's rotation ends) in storage. Try once more with it. The rotation
    // call itself is raw: it holds the lock, so it must not wait for it.
    if (res.status === 401 && !raw && token !== null) {
      if (storage.get('token') === token) await rotationSettled();
      const now = storage.get('token');
      if (now !== null && now !== token) res = await send(path, opts, accept, now);
    }
    if (!res.ok) throw await failure(res, opts);
    return await read(res);
  } finally {
    if (!raw) leave();
  }
};

/** A JSON call answering the success envelope. */
export const api = <T>(path: string, opts: RequestOptions = {}): Promise<Envelope<T>> =>
  call(path, opts, (r) => r.json() as Promise<Envelope<T>>, 'application/json', false);

/** The same, outside the rotation gate: for the rotation itself. */
export const apiRaw = <T>(path: string, opts: RequestOptions = {}): Promise<Envelope<T>> =>
  call(path, opts, (r) => r.json() as Promise<Envelope<T>>, 'application/json', true);

/** A binary download (the manual PDF). */
export const apiBlob = (path: string, opts: RequestOptions = {}): Promise<Blob> =>
  call(path, opts, (r) => r.blob(), 'application/pdf, application/json', false);

/**
 * A multipart upload with progress (the photo library's upload dialog): fetch cannot report
 * how much of a request body has gone, XMLHttpRequest can. Same headers, token, time-out and
 * error envelope as `api`; it waits behind a token rotation like any call.
 */
export const apiUpload = async <T>(
  path: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<Envelope<T>> => {
  await enter();
  try {
    const token = storage.get('token');
    const xhr = new XMLHttpRequest();
    const done = new Promise<{ status: number; text: string }>((resolve, reject) => {
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
      };
      xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
      xhr.onerror = () => reject(new ApiError(0, null));
      xhr.ontimeout = () => reject(new ApiError(0, null));
    });
    xhr.open('POST', buildUrl(path, {}));
    xhr.timeout = API_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Api-Key', apiKey());
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.send(form);
    const { status, text } = await done;
    let body: unknown = null;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = null;
    }
    if (status < 200 || status >= 300) {
      if (status === 401 && window.location.pathname !== '/login') onUnauthorized();
      throw new ApiError(status, body as Partial<ErrorEnvelope> | null);
    }
    onProgress(1);
    return body as Envelope<T>;
  } finally {
    leave();
  }
};
