import { ChannelError } from './channel';

/** How a channel folder turns a provider's failed answer into a ChannelError. */
export type Classify = (status: number, body: unknown, headers: Headers) => ChannelError;

export type HttpDeps = {
  fetch: typeof fetch;
  /** The longest we wait for a provider's rate-limit reset inside one request. */
  maxWaitMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Wall-clock now, for absolute reset times (X's x-rate-limit-reset is epoch seconds). */
  now: () => number;
};

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Request time-out: a provider that hangs must not hold the browser's 60 s call. */
const TIMEOUT_MS = 20_000;

export const readBody = async (res: Response): Promise<unknown> => {
  const text = await res.text();
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { text: text.slice(0, 500) };
  }
};

/** One HTTP call; a failure leaves as a classified ChannelError. */
export async function requestJson<T>(
  deps: HttpDeps,
  url: string,
  init: RequestInit,
  classify: Classify,
): Promise<T> {
  let res: Response;
  try {
    res = await deps.fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new ChannelError('retryable', `network: ${(err as Error).message}`);
  }
  const body = await readBody(res);
  if (!res.ok) throw classify(res.status, body, res.headers);
  return body as T;
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
 * Runs a call, and runs it again when the failure says so: after a 429's reset time when that
 * lies within `maxWaitMs`, or after a short backoff with jitter for a provider failure.
 * Anything else, or the last attempt, throws.
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
      if (err.kind === 'quota') {
        if (err.retryAfterMs === null || err.retryAfterMs > deps.maxWaitMs) throw err;
        await deps.sleep(err.retryAfterMs);
      } else if (err.kind === 'retryable') {
        const backoff = 200 * 2 ** (attempt - 1) + Math.floor(Math.random() * 100);
        await deps.sleep(Math.min(backoff, deps.maxWaitMs));
      } else {
        throw err;
      }
    }
  }
}
