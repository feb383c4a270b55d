/**
 * Knobs a test or a person can turn through /control/settings. Defaults follow the providers'
 * documented values (reference/providers.md); tests shorten lifetimes and quotas.
 */
export type Settings = {
  google: {
    /** Access-token lifetime; Google answers expires_in 3599. */
    accessTokenTtlSeconds: number;
    codeTtlSeconds: number;
    /**
     * Google's review of a localPost: it stays PROCESSING (on create, get and list) at least this
     * long, then turns LIVE, or REJECTED when its summary carries `sandbox:reject`, on the next
     * read. Google documents no review time (ADR 0060); 0 ends it by the first read, as the
     * suites expect; set minutes here to watch Tenpo follow a long review.
     */
    postLiveAfterMs: number;
    /** Default quota of every GBP API, per API and minute. */
    queriesPerMinute: number;
    /** Business Information: edits per minute per profile (not raisable at Google). */
    editsPerMinutePerProfile: number;
  };
  facebook: {
    shortTokenTtlSeconds: number;
    longTokenTtlSeconds: number;
    /** Business-use-case budget of a page token per rolling hour (throttled with code 32). */
    pageCallsPerHour: number;
    /** User/app tokens per rolling hour (throttled with code 17 / 4). */
    userCallsPerHour: number;
    videoProcessingMs: number;
    /**
     * Exchanging a token that is long-lived already gives a token that keeps the original's
     * expiry (Meta documents the exchange for short-lived tokens only; ADR 0063). Off: a
     * fresh 60 days, as before.
     */
    reexchangeKeepsExpiry: boolean;
  };
  instagram: {
    /** Posts per rolling 24 h through media_publish (the spec's 25; Meta has said 25, 50, 100). */
    quotaTotal: number;
    imageProcessingMs: number;
    videoProcessingMs: number;
  };
  x: {
    accessTokenTtlSeconds: number;
    codeTtlSeconds: number;
    tweetsPer15MinPerUser: number;
    deletesPer15MinPerUser: number;
    tweetsPer24hPerApp: number;
    /**
     * POST /2/tweets per user per 24 h, answered in `x-user-limit-24hour-*` and a 429 once
     * spent. The current table names no user day cap (10,000 per app); the 2023 Basic tier had
     * 100/24 h per user (providers.md §4.5 [CONFLICT]): by default as high as the app's, tests
     * lower it.
     */
    tweetsPer24hPerUser: number;
    videoProcessingMs: number;
  };
  sbps: {
    /** Lifetime of a token from com_sbps_system.generateToken (SBPS's own is UNCONFIRMED). */
    tokenTtlSeconds: number;
    /** How long SBPS waits for the merchant's pagecon_url to answer `OK,` (10 s). */
    pageconTimeoutMs: number;
    /** EMV 3-D Secure required (ADR 0059): `credit` and unauthenticated tokens are refused. */
    require3ds: boolean;
  };
  /** Whether emulators fetch media URLs as the providers do (off: any http(s) URL is accepted as a valid JPEG). */
  fetchMedia: boolean;
  /** How long an emulator waits for a media URL before it gives up, as the provider's crawler does. */
  mediaFetchTimeoutMs: number;
  /** Added to the wall clock: lets tests jump past token expiry without waiting. */
  clockOffsetMs: number;
};

export const defaultSettings = (): Settings => ({
  google: {
    accessTokenTtlSeconds: 3599,
    codeTtlSeconds: 600,
    postLiveAfterMs: 0,
    queriesPerMinute: 300,
    editsPerMinutePerProfile: 10,
  },
  facebook: {
    shortTokenTtlSeconds: 7200,
    longTokenTtlSeconds: 5183944,
    pageCallsPerHour: 4800,
    userCallsPerHour: 200 * 50,
    videoProcessingMs: 2000,
    reexchangeKeepsExpiry: true,
  },
  instagram: { quotaTotal: 25, imageProcessingMs: 0, videoProcessingMs: 3000 },
  x: {
    accessTokenTtlSeconds: 7200,
    codeTtlSeconds: 30,
    tweetsPer15MinPerUser: 100,
    deletesPer15MinPerUser: 50,
    tweetsPer24hPerApp: 10000,
    tweetsPer24hPerUser: 10000,
    videoProcessingMs: 2000,
  },
  sbps: { tokenTtlSeconds: 600, pageconTimeoutMs: 10_000, require3ds: true },
  fetchMedia: true,
  mediaFetchTimeoutMs: 10_000,
  clockOffsetMs: 0,
});

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
export type SettingsPatch = DeepPartial<Settings>;

/** Merges a patch, keeping only known keys with values of the default's type. */
export function mergeSettings(current: Settings, patch: unknown): Settings {
  const merge = (base: Record<string, unknown>, p: unknown): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...base };
    if (!p || typeof p !== 'object') return out;
    for (const [k, v] of Object.entries(p as Record<string, unknown>)) {
      if (!(k in base)) continue;
      const b = base[k];
      if (b && typeof b === 'object') out[k] = merge(b as Record<string, unknown>, v);
      else if (typeof b === 'number' && typeof v === 'number' && Number.isFinite(v)) out[k] = v;
      else if (typeof b === 'boolean' && typeof v === 'boolean') out[k] = v;
    }
    return out;
  };
  return merge(current as unknown as Record<string, unknown>, patch) as unknown as Settings;
}
