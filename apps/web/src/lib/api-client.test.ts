import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_TIMEOUT_MS,
  ApiError,
  api,
  apiRaw,
  exclusive,
  setUnauthorizedHandler,
} from './api-client';

const reply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('api client', () => {
  beforeEach(() => localStorage.setItem('token', 'tok'));
  afterEach(() => setUnauthorizedHandler(() => {}));

  it('sends the Bearer token, the API key and JSON accept', async () => {
    const f = vi.fn(async () => reply(200, { status_code: 200, data: 1 }));
    vi.stubGlobal('fetch', f);
    await api('/x', { query: { page: 2, search: '', user_id: null } });
    const [url, init] = f.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/x?page=2');
    const h = new Headers(init.headers);
    expect(h.get('Authorization')).toBe('Bearer tok');
    expect(h.get('X-Api-Key')).toBe('tenpo-dev-key');
    expect(h.get('Accept')).toBe('application/json');
  });

  it('flattens errors to lines, with the generic 500 message as fallback', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        reply(422, { status_code: 422, message: 'x', errors: { a: ['一'], b: ['二'] } }),
      ),
    );
    await expect(api('/x')).rejects.toMatchObject({ status: 422, lines: ['一', '二'] });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('oops', { status: 500 })),
    );
    await expect(api('/x')).rejects.toMatchObject({
      status: 500,
      lines: ['何らかのエラーが発生しました'],
    });
  });

  it('calls the 401 handler outside /login only', async () => {
    const h = vi.fn();
    setUnauthorizedHandler(h);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => reply(401, { status_code: 401, message: 'no', errors: {} })),
    );
    window.history.pushState({}, '', '/dashboard');
    await expect(api('/x')).rejects.toBeInstanceOf(ApiError);
    expect(h).toHaveBeenCalledTimes(1);
    await expect(api('/login', { noAuthRedirect: true })).rejects.toBeInstanceOf(ApiError);
    window.history.pushState({}, '', '/login');
    await expect(api('/x')).rejects.toBeInstanceOf(ApiError);
    expect(h).toHaveBeenCalledTimes(1);
    window.history.pushState({}, '', '/');
  });

  it('a 401 for a token another tab rotated meanwhile is tried again with the new one, not a logout', async () => {
    const h = vi.fn();
    setUnauthorizedHandler(h);
    const seen: Array<string | null> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_u: string, init: RequestInit) => {
        const auth = new Headers(init.headers).get('Authorization');
        seen.push(auth);
        if (auth === 'Bearer tok') {
          // The other tab's rotation revoked 'tok' and stored its successor.
          localStorage.setItem('token', 'tok-2');
          return reply(401, { status_code: 401, message: 'no', errors: {} });
        }
        return reply(200, { status_code: 200, data: 'ok' });
      }),
    );
    window.history.pushState({}, '', '/dashboard');
    await expect(api('/x')).resolves.toMatchObject({ data: 'ok' });
    expect(seen).toEqual(['Bearer tok', 'Bearer tok-2']);
    expect(h).not.toHaveBeenCalled();

    // A 401 with the token still in storage is a real logout: no second try.
    seen.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_u: string, init: RequestInit) => {
        seen.push(new Headers(init.headers).get('Authorization'));
        return reply(401, { status_code: 401, message: 'no', errors: {} });
      }),
    );
    await expect(api('/x')).rejects.toBeInstanceOf(ApiError);
    expect(seen).toEqual(['Bearer tok-2']);
    expect(h).toHaveBeenCalledTimes(1);
    window.history.pushState({}, '', '/');
  });

  it('gives up after 60 seconds', async () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal(
        'fetch',
        vi.fn(
          (_u: string, init: RequestInit) =>
            new Promise((_r, reject) =>
              init.signal?.addEventListener('abort', () =>
                reject(new DOMException('abort', 'AbortError')),
              ),
            ),
        ),
      );
      const p = api('/slow');
      const seen = expect(p).rejects.toMatchObject({ status: 0 });
      await vi.advanceTimersByTimeAsync(API_TIMEOUT_MS - 1);
      await vi.advanceTimersByTimeAsync(1);
      await seen;
    } finally {
      vi.useRealTimers();
    }
  });

  it('a rotation waits for calls in flight and holds new ones until it is done', async () => {
    const order: string[] = [];
    let finishSlow: () => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(async (u: string) => {
        order.push(`start ${u}`);
        if (u === '/api/slow') await new Promise<void>((r) => (finishSlow = r));
        order.push(`end ${u}`);
        return reply(200, { status_code: 200, data: null });
      }),
    );
    const slow = api('/slow');
    await vi.waitFor(() => expect(order).toContain('start /api/slow'));
    const rotation = exclusive(() => apiRaw('/refresh-token'));
    const later = api('/later');
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['start /api/slow']);
    finishSlow();
    await Promise.all([slow, rotation, later]);
    expect(order).toEqual([
      'start /api/slow',
      'end /api/slow',
      'start /api/refresh-token',
      'end /api/refresh-token',
      'start /api/later',
      'end /api/later',
    ]);
  });
});
