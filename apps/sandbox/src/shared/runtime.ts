import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { blobStore, jsonStore, type BlobStore, type JsonStore } from './store';
import { defaultSettings, mergeSettings, type Settings } from './settings';
import type { FetchLogEntry } from './media';

export const providers = ['google', 'facebook', 'instagram', 'x', 'sbps', 'llm'] as const;
export type Provider = (typeof providers)[number];
/**
 * `flaky`: each affected call answers either the rate limit or a 5xx (chosen by the seed).
 * The account faults answer as the provider does for an account it holds back (ADR 0063,
 * fixtures/meta-graph-errors, fixtures/x-errors, fixtures/google-errors): `policy_block` (Graph
 * 368), `password_changed` (Graph 190/460), `deauthorized` (Graph 190/458), `suspended` (X 403
 * user-suspended; Google 403 PERMISSION_DENIED for a suspended or unverified location). They
 * need a provider: see `faultProviders`.
 */
export const faultKinds = [
  'expired_token',
  'rate_limit',
  'server_error',
  'slow',
  'flaky',
  'policy_block',
  'password_changed',
  'deauthorized',
  'suspended',
] as const;
export type FaultKind = (typeof faultKinds)[number];
/** The providers a kind exists at; a kind not listed exists at every provider. */
export const faultProviders: Partial<Record<FaultKind, readonly Provider[]>> = {
  policy_block: ['facebook', 'instagram'],
  password_changed: ['facebook', 'instagram'],
  deauthorized: ['facebook', 'instagram'],
  suspended: ['x', 'google'],
};

export type Fault = {
  id: string;
  /** null = every provider. */
  provider: Provider | null;
  /** e-mail, user id, page id, IG user id or X username; null = every account. */
  account: string | null;
  kind: FaultKind;
  /** HTTP status for server_error (500, 502, 503). */
  status: number;
  delay_ms: number;
  /** For rate_limit: when the provider says access comes back. */
  retry_after_seconds: number;
  /** Calls left to affect; null = until cleared. */
  remaining: number | null;
  /** Only calls of this method (e.g. POST: a publish, not the reads around it); null = any. */
  method: string | null;
  /** Only calls whose path contains this text (e.g. `/tweets`, `/localPosts`); null = any. */
  path: string | null;
  /**
   * Share of the matching calls that fail (0 < fraction ≤ 1); null = every matching call.
   * Which calls fail follows `seed`, so a test run can be reproduced.
   */
  fraction: number | null;
  seed: number;
  /** Matching calls seen, and how many of them this fault answered. */
  seen: number;
  fired: number;
  created_at: string;
};

export type FaultInput = Partial<Omit<Fault, 'id' | 'created_at' | 'seen' | 'fired'>> & {
  provider: Provider | null;
  kind: FaultKind;
};

/** A reproducible draw in [0, 1) for the n-th call a seeded fault sees (mulberry32 of seed and n). */
export function seededDraw(seed: number, n: number): number {
  let t = (Math.imul(seed | 0, 0x9e3779b1) + Math.imul(n + 1, 0x85ebca6b)) | 0;
  t = (t + 0x6d2b79f5) | 0;
  let r = Math.imul(t ^ (t >>> 15), 1 | t);
  r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
  return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
}

export type Runtime = {
  dir: string;
  baseUrl: string;
  now(): number;
  settings(): Settings;
  updateSettings(patch: unknown): Settings;
  advanceClock(ms: number): number;
  faults: {
    list(): Fault[];
    add(input: FaultInput): Fault;
    remove(id: string): boolean;
    clear(): void;
    /**
     * The faults that apply to this call (each one counts the call); `slow` ones first.
     * `call` is the request (method and URL) for faults limited to some calls.
     */
    take(
      provider: Provider,
      accountKeys: readonly string[],
      call?: { method: string; url: string },
    ): Fault[];
  };
  blobs: BlobStore;
  /** Every media URL an emulator fetched (as the provider's crawler would), newest last. */
  fetches: {
    record(entry: FetchLogEntry): FetchLogEntry;
    list(): FetchLogEntry[];
    clear(): void;
  };
  /**
   * Every provider call by method and path (`POST /x/api/2/tweets`), counted as it arrives, so a
   * test can prove how often a client called (a retried publish, a second token refresh).
   */
  calls: {
    record(key: string): void;
    list(): Record<string, number>;
    clear(): void;
  };
  /** Each emulator registers how to go back to its seed. */
  onReset(provider: Provider | 'all', fn: () => void): void;
  reset(provider?: Provider): void;
  /** Sliding-window counter kept in memory (quotas reset with the process, as windows do). */
  hit(
    key: string,
    windowMs: number,
    limit: number,
  ): { allowed: boolean; remaining: number; resetAt: number; count: number };
};

export function createRuntime(dataDir: string, baseUrl: string): Runtime {
  const dir = path.join(dataDir, 'sandbox');
  const settings: JsonStore<Settings> = jsonStore(dir, 'settings', defaultSettings);
  settings.data = mergeSettings(defaultSettings(), settings.data);
  const faults: JsonStore<Fault[]> = jsonStore(dir, 'faults', () => []);
  const resetters: { provider: Provider | 'all'; fn: () => void }[] = [];
  const windows = new Map<string, number[]>();
  const blobs = blobStore(dir);
  const calls = new Map<string, number>();
  let fetchLog: FetchLogEntry[] = [];
  const now = (): number => Date.now() + settings.data.clockOffsetMs;

  return {
    dir,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    now,
    settings: () => settings.data,
    updateSettings(patch) {
      settings.data = mergeSettings(settings.data, patch);
      settings.save();
      return settings.data;
    },
    advanceClock(ms) {
      settings.data.clockOffsetMs += ms;
      settings.save();
      return settings.data.clockOffsetMs;
    },
    faults: {
      list: () => faults.data,
      add(input) {
        const fault: Fault = {
          id: randomUUID(),
          provider: input.provider,
          account: input.account ? input.account.trim().toLowerCase() || null : null,
          kind: input.kind,
          status: input.status ?? 503,
          delay_ms: input.delay_ms ?? 3000,
          retry_after_seconds: input.retry_after_seconds ?? 60,
          remaining: input.remaining === undefined ? (input.fraction ? null : 1) : input.remaining,
          method: input.method ? input.method.toUpperCase() : null,
          path: input.path || null,
          fraction: input.fraction ?? null,
          seed: input.seed ?? 1,
          seen: 0,
          fired: 0,
          created_at: new Date(now()).toISOString(),
        };
        faults.data.push(fault);
        faults.save();
        return fault;
      },
      remove(id) {
        const before = faults.data.length;
        faults.data = faults.data.filter((f) => f.id !== id);
        faults.save();
        return faults.data.length < before;
      },
      clear() {
        faults.data = [];
        faults.save();
      },
      take(provider, accountKeys, call) {
        const keys = accountKeys.map((k) => k.toLowerCase());
        const path = (call?.url ?? '').split('?')[0] ?? '';
        const matching = faults.data.filter(
          (f) =>
            (f.provider === null || f.provider === provider) &&
            (f.account === null || keys.includes(f.account)) &&
            (!f.method || f.method === call?.method.toUpperCase()) &&
            (!f.path || path.includes(f.path)),
        );
        if (matching.length === 0) return [];
        // A fractional fault draws once per matching call, whether or not another fault answers it.
        const hits = matching.filter((f) => {
          const n = f.seen;
          f.seen += 1;
          return f.fraction === null || seededDraw(f.seed, n) < f.fraction;
        });
        const slow = hits.filter((f) => f.kind === 'slow');
        const failing = hits.find((f) => f.kind !== 'slow');
        const taken = failing ? [...slow, failing] : slow;
        for (const f of taken) {
          f.fired += 1;
          if (f.remaining !== null) f.remaining -= 1;
        }
        faults.data = faults.data.filter((f) => f.remaining === null || f.remaining > 0);
        faults.save();
        return taken.map((f) =>
          f.kind === 'flaky'
            ? {
                ...f,
                // Half rate limits, half server errors, also decided by the seed.
                kind:
                  seededDraw(f.seed ^ 0x5bd1e995, f.fired) < 0.5 ? 'rate_limit' : 'server_error',
              }
            : f,
        );
      },
    },
    blobs,
    fetches: {
      record(entry) {
        fetchLog.push(entry);
        if (fetchLog.length > 1000) fetchLog = fetchLog.slice(-1000);
        return entry;
      },
      list: () => fetchLog,
      clear: () => void (fetchLog = []),
    },
    calls: {
      record: (key) => void calls.set(key, (calls.get(key) ?? 0) + 1),
      list: () => Object.fromEntries(calls),
      clear: () => calls.clear(),
    },
    onReset(provider, fn) {
      resetters.push({ provider, fn });
    },
    reset(provider) {
      for (const r of resetters)
        if (!provider || r.provider === provider || r.provider === 'all') r.fn();
      if (!provider) {
        faults.data = [];
        faults.save();
        settings.data = defaultSettings();
        settings.save();
        windows.clear();
        calls.clear();
        fetchLog = [];
      } else {
        for (const k of [...windows.keys()]) if (k.startsWith(`${provider}:`)) windows.delete(k);
        faults.data = faults.data.filter((f) => f.provider !== provider);
        fetchLog = fetchLog.filter((e) => e.provider !== provider);
        faults.save();
      }
    },
    hit(key, windowMs, limit) {
      const t = now();
      const list = (windows.get(key) ?? []).filter((x) => x > t - windowMs);
      const allowed = list.length < limit;
      if (allowed) list.push(t);
      windows.set(key, list);
      const oldest = list[0] ?? t;
      return {
        allowed,
        remaining: Math.max(0, limit - list.length),
        resetAt: oldest + windowMs,
        count: list.length,
      };
    },
  };
}
