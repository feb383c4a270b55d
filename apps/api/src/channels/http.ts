import { ChannelError } from './channel';
import { providerCalls, providerErrors, providerSeconds } from '../lib/metrics';

/** How a channel folder turns a provider's failed answer into a ChannelError. */
export type Classify = (status: number, body: unknown, headers: Headers) => ChannelError;

export type HttpDeps = {
  fetch: typeof fetch;
  /** The longest we wait for a provider's rate-limit reset inside one request. */
  maxWaitMs: number;
  sleep: (ms: number) => Promise<void>;
  /**
   * The waits between the tries of one repeatable call (`withRetry`): `sleep` unless a test
   * sets its own (the fault tests retry at once instead of sleeping through their back-offs).
   */
  retrySleep?: (ms: number) => Promise<void>;
  /** Wall-clock now, for absolute reset times (X's x-rate-limit-reset is epoch seconds). */
  now: () => number;
  /** Request time-out: a provider that hangs must not hold the browser's 60 s call. */
  timeoutMs: number;
};

type CallResult =
  | 'ok'
  | 'client_error'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'network_error';

const resultOf = (status: number): CallResult =>
  status < 400
    ? 'ok'
    : status === 429
      ? 'rate_limited'
      : status < 500
        ? 'client_error'
        : 'server_error';

/**
 * A channel's fetch, counted (ADR 0052): every provider call goes through it, the JSON calls
 * here and the Google client libraries' alike (createChannels hands each client its own). Only
 * the channel and the kind of result are labels, never a URL or an account.
 */
export function meteredFetch(channel: string, inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const started = performance.now();
    let result: CallResult = 'ok';
    try {
      const res = await inner(input, init);
      result = resultOf(res.status);
      return res;
    } catch (err) {
      const name = (err as Error).name;
      result = name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network_error';
      throw err;
    } finally {
      providerCalls.inc({ channel, result });
      if (result !== 'ok') providerErrors.inc({ channel, result });
      providerSeconds.observe({ channel }, (performance.now() - started) / 1000);
    }
  };
}

/**
 * Whether a call may be sent again when its first try failed without a clear answer. Reads
 * (GET), token refreshes, deletes and whole-object patches are; publishing, uploading and
 * creating are not: a time-out there may have posted, and a second try would post twice.
 */
export type CallSafety = { repeatable: boolean };

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** The default request time-out (HttpDeps.timeoutMs). */
export const TIMEOUT_MS = 20_000;

/** Errors of a connection that never reached the provider: nothing can have happened there. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const networkCode = (err: unknown): string | undefined =>
  ((err as { cause?: { code?: string } }).cause ?? (err as { code?: string })).code;

/**
 * A call that got no answer: transient when the call is repeatable or never left this machine;
 * otherwise the provider may have acted on it, so its outcome is unknown.
 */
export const unanswered = (err: unknown, safety: CallSafety): ChannelError => {
  const e = err as Error;
  const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
  const text = `${timedOut ? 'time-out' : 'network'}: ${e.message}`;
  if (safety.repeatable || NEVER_SENT.has(networkCode(err) ?? ''))
    return new ChannelError('transient', text);
  return new ChannelError('outcome_unknown', text);
};

const defaultSafety = (init: RequestInit): CallSafety => ({
  repeatable: ['GET', 'HEAD', 'DELETE', undefined].includes(init.method?.toUpperCase()),
});

export const readBody = async (res: Response): Promise<unknown> => {
  const text = await res.text();
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { text: text.slice(0, 500) };
  }
};

/** One try of one HTTP call; a failure leaves as a classified ChannelError. */
async function sendOnce<T>(
  deps: HttpDeps,
  url: string,
  init: RequestInit,
  classify: Classify,
  safety: CallSafety,
): Promise<T> {
  let res: Response;
  let body: unknown;
  try {
    res = await deps.fetch(url, { ...init, signal: AbortSignal.timeout(deps.timeoutMs) });
    body = await readBody(res);
  } catch (err) {
    throw unanswered(err, safety);
  }
  if (!res.ok) throw classify(res.status, body, res.headers);
  return body as T;
}

/**
 * One HTTP call. A repeatable call (reads by default; `safety` says otherwise) is tried again
 * on a transient failure or a short rate limit (`withRetry`); any other call is sent exactly
 * once, and a time-out leaves it as `outcome_unknown`.
 */
export async function requestJson<T>(
  deps: HttpDeps,
  url: string,
  init: RequestInit,
  classify: Classify,
  safety: CallSafety = defaultSafety(init),
): Promise<T> {
  const once = () => sendOnce<T>(deps, url, init, classify, safety);
  return safety.repeatable ? withRetry(deps, once) : once();
}

export const form = (o: Record<string, string | undefined>): URLSearchParams => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(o)) if (v !== undefined) p.set(k, v);
  return p;
};

export const withQuery = (base: string, o: Record<string, string | undefined>): string =>
  `${base}?${form(o).toString()}`;

/** `Retry-After` in seconds or as an HTTP date. */
export const retryAfterMs = (headers: Headers, now: number): number | null => {
  const v = headers.get('retry-after');
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
};

/**
 * Runs a repeatable call, and runs it again when the failure says so: after a rate limit's
 * reset time when that lies within `maxWaitMs`, or after a short backoff with jitter for a
 * transient failure. Anything else, or the last attempt, throws. Never wrap a call that is not
 * safe to repeat (publish, upload, create) in this.
 */
export async function withRetry<T>(
  deps: HttpDeps,
  fn: () => Promise<T>,
  maxAttempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ChannelError) || attempt >= maxAttempts) throw err;
      const wait = deps.retrySleep ?? deps.sleep;
      if (err.kind === 'rate_limited') {
        if (err.retryAfterMs === null || err.retryAfterMs > deps.maxWaitMs) throw err;
        await wait(err.retryAfterMs);
      } else if (err.kind === 'transient') {
        const backoff = 200 * 2 ** (attempt - 1) + Math.floor(Math.random() * 100);
        await wait(Math.min(backoff, deps.maxWaitMs));
      } else {
        throw err;
      }
    }
  }
}
