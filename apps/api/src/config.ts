import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** The documented development default of the fixed API key (README, configuration table). */
export const DEV_API_KEY = 'tenpo-dev-key';

/** The help site linked when HELP_URL is unset (README, configuration table). */
export const DEFAULT_HELP_URL = 'https://help.tenpo.example/';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A raster tile URL template: http(s), with {z}, {x} and {y}; {s} would need a CSP wildcard. */
function isTileTemplate(v: string): boolean {
  if (!['{z}', '{x}', '{y}'].every((p) => v.includes(p)) || v.includes('{s}')) return false;
  try {
    const url = new URL(v.replace(/\{[a-z]\}/g, '0'));
    return (url.protocol === 'https:' || url.protocol === 'http:') && !/[{}]/.test(url.host);
  } catch {
    return false;
  }
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:|file:)/, 'must start with postgres://, sqlite: or file:')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  TENPO_PROVIDERS: z.enum(['sandbox', 'live']).default('sandbox'),
  // A staging demo's opt-in to the emulators under NODE_ENV=production (ADR 0051).
  TENPO_ALLOW_SANDBOX_IN_PRODUCTION: boolish.default(false),
  SANDBOX_URL: z.url().optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  FACEBOOK_APP_ID: z.string().min(1).optional(),
  FACEBOOK_APP_SECRET: z.string().min(1).optional(),
  FACEBOOK_GRAPH_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must look like v25.0')
    .default('v25.0'),
  X_CLIENT_ID: z.string().min(1).optional(),
  X_CLIENT_SECRET: z.string().min(1).optional(),
  CHANNEL_MAX_WAIT_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  TENPO_SECRET_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)')
    .optional(),
  TENPO_API_KEY: z.string().min(8, 'must be at least 8 characters').default(DEV_API_KEY),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Tenpo <no-reply@tenpo.example>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  // Upload bytes in flight (issue 22, ADR 0064): per user, and in the whole process.
  UPLOAD_INFLIGHT_USER_MB: z.coerce.number().int().min(1).default(512),
  UPLOAD_INFLIGHT_PROCESS_MB: z.coerce.number().int().min(1).default(1024),
  TENPO_WORKER: boolish.default(true),
  // PostgreSQL connections this process's pool opens at most (issue 26 P9): default 10, or 20
  // in a process that runs jobs (16 publish jobs at once, plus the schedules and the API).
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).optional(),
  // The job engine (ADR 0020): the table driver, or pg-boss on PostgreSQL. Default: pg-boss when
  // DATABASE_URL is PostgreSQL, the table driver otherwise (ADR 0053).
  TENPO_JOB_DRIVER: z.enum(['table', 'pg-boss']).optional(),
  // How long a process that does not migrate (a worker) waits for pending migrations (ADR 0053).
  MIGRATION_WAIT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  JOB_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  // The daily metrics sync (ADR 0035): the hour of the day, Tokyo time, it pulls Google again.
  METRICS_SYNC_HOUR: z.coerce.number().int().min(0).max(23).default(6),
  /** Minutes between two reads of every connected store's Google reviews (divides 60). */
  REVIEWS_SYNC_MINUTES: z.coerce
    .number()
    .int()
    .refine((n) => n >= 1 && 60 % n === 0, 'a divisor of 60 (1, 5, 15, 30…)')
    .default(15),
  // Language-model drafts of review replies (ADR 0091): an OpenAI-compatible Chat Completions
  // server. Off unless LLM_BASE_URL is set; with TENPO_PROVIDERS=sandbox, the sandbox's model.
  LLM_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().trim().min(1).max(200).optional(),
  LLM_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(20),
  // false turns the drafts off even where they default to on (the sandbox).
  LLM_DRAFTS: boolish.optional(),
  // Default depends on the mode (see `productionRules`): on in development, off in production.
  TENPO_SEED_DEMO: boolish.optional(),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|[0-9a-f.:/]+(\s*,\s*[0-9a-f.:/]+)*)$/i,
      'must be false, true, a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges',
    )
    .default('false'),
  WEB_DIST: z.string().optional(),
  // Media storage (ADR 0021): local disk under DATA_DIR by default, or an S3-compatible bucket.
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_PRIVATE: boolish.default(false),
  STORAGE_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600, 'must be at most 604800 (7 days, the longest an S3 presigned URL lives)')
    .default(3600),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be 3–63 characters: lower-case letters, digits, dots and hyphens',
    )
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: boolish.default(false),
  S3_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  // The store map's raster tiles (ADR 0042): unset, the map draws its offline outlines of Japan.
  MAP_TILE_URL: z
    .string()
    .refine(isTileTemplate, {
      error:
        'must be an http:// or https:// URL template with {z}, {x} and {y} in it (and no {s}), e.g. https://tiles.example/{z}/{x}/{y}.png',
    })
    .optional(),
  MAP_ATTRIBUTION: z.string().trim().min(1).max(300).optional(),
  // The external help site of the account menu and the plan selector (spec 1 §1), handed to the
  // browser in index.html.
  HELP_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default(DEFAULT_HELP_URL),
  // Card payments through SB Payment Service (issue 13, ADR 0050): required when live; the
  // sandbox's merchant otherwise (SANDBOX_SBPS).
  SBPS_MERCHANT_ID: z
    .string()
    .regex(/^\d{5}$/, 'must be 5 digits')
    .optional(),
  SBPS_SERVICE_ID: z
    .string()
    .regex(/^\d{3}$/, 'must be 3 digits')
    .optional(),
  SBPS_HASH_KEY: z.string().min(1).max(64).optional(),
  SBPS_BASIC_ID: z.string().min(1).optional(),
  SBPS_BASIC_PASSWORD: z.string().min(1).optional(),
  SBPS_3DES_KEY: z.string().length(24, 'must be 24 characters (a 3DES key)').optional(),
  SBPS_3DES_IV: z.string().length(8, 'must be 8 characters (a 3DES IV)').optional(),
  SBPS_PURCHASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  SBPS_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  SBPS_TOKEN_SCRIPT_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional(),
  PLAN_STANDARD_PRICE: z.coerce.number().int().min(1).max(10_000_000).default(6980),
  PLAN_PREMIUM_PRICE: z.coerce.number().int().min(1).max(10_000_000).default(20000),
  // The daily billing run (ADR 0050): the hour of the day, Tokyo time.
  BILLING_HOUR: z.coerce.number().int().min(0).max(23).default(10),
  // Operations (issue 20 §6, ADR 0052): probes, the drain window, Prometheus metrics.
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  // Default depends on the mode: 10 s in production, 0 elsewhere so that Ctrl-C stays instant.
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

/** Where each provider lives and who we are to it (DESIGN §2: only these differ, never code). */
export type ChannelsConfig = Readonly<{
  google: Readonly<{
    /** accounts.google.com: the consent page. */
    accountsUrl: string;
    /** oauth2.googleapis.com: token, revoke. */
    oauth2Url: string;
    accountManagementUrl: string;
    businessInformationUrl: string;
    performanceUrl: string;
    /** mybusiness.googleapis.com: v4 local posts and media. */
    myBusinessUrl: string;
    clientId: string;
    clientSecret: string;
  }>;
  facebook: Readonly<{
    /** www.facebook.com: the login dialog. */
    wwwUrl: string;
    graphUrl: string;
    graphVersion: string;
    appId: string;
    appSecret: string;
  }>;
  x: Readonly<{
    /** x.com: the authorize page. */
    wwwUrl: string;
    apiUrl: string;
    clientId: string;
    clientSecret: string;
  }>;
  /** The longest one request waits for a provider's rate-limit reset before giving up. */
  maxWaitMs: number;
}>;

/** SB Payment Service (providers.md §5): where it answers and who we are to it. */
export type SbpsConfig = Readonly<{
  merchantId: string;
  serviceId: string;
  /** The 40-character key every SHA-1 `sps_hashcode` ends with. */
  hashKey: string;
  /** HTTP Basic credentials of the XML API. */
  basicId: string;
  basicPassword: string;
  /** 3DES-CBC key (24 bytes) and IV (8 bytes) of `encrypted_flg=1` fields. */
  desKey: string;
  desIv: string;
  /** The link-type purchase request's form target (A01-1). */
  purchaseUrl: string;
  /** The XML API. */
  apiUrl: string;
  /** The token script the card form loads (`com_sbps_system.generateToken`). */
  tokenScriptUrl: string;
  /** The longest one XML API call may take. */
  timeoutMs: number;
}>;

/** Plans, prices and the billing run (ADR 0050). */
export type PaymentsConfig = Readonly<{
  sbps: SbpsConfig;
  /** Monthly price in yen of plan 1 (standard) and plan 2 (premium). */
  prices: Readonly<{ 1: number; 2: number }>;
  /** The hour of the day, Tokyo time, the daily billing run starts. */
  billingHour: number;
}>;

export type Config = Readonly<{
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  /** The PostgreSQL pool's size in this process (DATABASE_POOL_SIZE; `databasePoolSizeOf`). */
  databasePoolSize: number | null;
  publicUrl: string;
  providers: 'sandbox' | 'live';
  /**
   * The emulators at /sandbox in this process (ADR 0051): `none` when live or when they run
   * elsewhere (SANDBOX_URL); `api-key` in a production staging demo, where every request to
   * them needs the API key; `open` on a developer's machine.
   */
  sandboxMount: 'none' | 'open' | 'api-key';
  /**
   * SANDBOX_URL: the emulators run as a process of their own (`npm run sandbox`), reached there
   * (mail through SMTP_URL); null: this process mounts them at /sandbox (the one-process default).
   */
  sandboxUrl: string | null;
  channels: ChannelsConfig;
  secretKey: Buffer;
  apiKey: string;
  smtpUrl: string | null;
  mailFrom: string;
  logLevel: string;
  sessionTtlHours: number;
  rateLimitAuthPerMinute: number;
  /** Upload bytes in flight, declared by the requests (ADR 0064). */
  uploadsInFlight: Readonly<{ perUser: number; perProcess: number }>;
  runWorker: boolean;
  jobs: Readonly<{ driver: 'table' | 'pg-boss'; pollMs: number; leaseMs: number }>;
  /** How long a worker waits for pending migrations before it gives up (MIGRATION_WAIT_SECONDS). */
  migrationWaitMs: number;
  /** The daily metrics sync's hour, Tokyo time (ADR 0035). */
  metricsSyncHour: number;
  reviewsSyncMinutes: number;
  /** Language-model drafts of replies (ADR 0091); null: off (only templates). */
  llm: LlmConfig | null;
  seedDemo: boolean;
  /**
   * Fastify's `trustProxy`: whom to believe about the client's address (X-Forwarded-For) and
   * host. Off by default, so a client cannot pick its own address for the per-IP rate limit.
   */
  trustProxy: boolean | number | string[];
  webDist: string | null;
  storage: StorageConfig;
  /**
   * The store map's tile server (ADR 0042), handed to the browser in index.html; null: the map
   * draws its offline outlines of Japan and asks no outside host for anything.
   */
  map: MapConfig | null;
  /** The external help site (HELP_URL), handed to the browser in index.html. */
  helpUrl: string;
  payments: PaymentsConfig;
  /** Probes, drain and metrics (ADR 0052). */
  ops: OpsConfig;
}>;

/** An OpenAI-compatible Chat Completions server (ADR 0091). */
export type LlmConfig = Readonly<{
  /** Up to `/v1`: the client POSTs `{baseUrl}/chat/completions`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; null: no header (a local server). */
  apiKey: string | null;
  model: string;
  timeoutMs: number;
}>;

export type OpsConfig = Readonly<{
  /** A worker's /api/health/{live,ready} port; 0: no health server. */
  workerHealthPort: number;
  /** How long the API keeps serving, unready, after SIGTERM before it closes. */
  drainMs: number;
  /** A separate /metrics server's port, or null. */
  metricsPort: number | null;
  /** Bearer token /metrics asks for; with it, /metrics is also served on the main port. */
  metricsToken: string | null;
}>;

export type MapConfig = Readonly<{
  /** A {z}/{x}/{y} raster tile URL template. */
  tileUrl: string;
  /** Plain text the map shows in its corner, as the tile server's terms require. */
  attribution: string;
  /** The template's origin, which the CSP's img-src allows. */
  origin: string;
}>;

export class ConfigError extends Error {}

const deepFreeze = <T extends object>(o: T): T => {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v as object);
  return Object.freeze(o);
};

/** Reads or, on first start, generates the secret key in DATA_DIR (mode 0600). */
const loadSecretKey = (dataDir: string, given: string | undefined): Buffer => {
  if (given) return Buffer.from(given, 'hex');
  const file = path.join(dataDir, 'secret.key');
  if (fs.existsSync(file)) {
    const hex = fs.readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/i.test(hex))
      throw new ConfigError(`TENPO_SECRET_KEY: ${file} is not 64 hex characters`);
    return Buffer.from(hex, 'hex');
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const hex = randomBytes(32).toString('hex');
  fs.writeFileSync(file, `${hex}\n`, { mode: 0o600, flag: 'wx' });
  return Buffer.from(hex, 'hex');
};

type Env = z.infer<typeof envSchema>;

const trustProxyOf = (v: string): boolean | number | string[] => {
  if (v === 'true' || v === 'false') return v === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  return v.split(',').map((a) => a.trim());
};

/** Loopback hosts, where browsers treat plain http as secure (a production smoke test). */
const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Production is `NODE_ENV=production` or live providers: real users and real tokens. It refuses
 * what is only safe on a developer's machine, naming the variable: the public demo accounts
 * (manager@tenpo.example sees every tenant, with the password in the README), the public
 * development API key, a secret key generated into DATA_DIR (replicas each would make their
 * own, and none could read the others' provider tokens), and, ADR 0051, the emulators unless
 * named for a staging demo (their mailbox shows every sign-up and reset link, their SBPS
 * signs with a key in the source), mail without SMTP (it would land in that mailbox, reaching
 * no one), and a missing or plain-http PUBLIC_URL (every link in mail and every media URL
 * handed to a provider is built on it; http would carry reset tokens in clear).
 * `rawProviders` is TENPO_PROVIDERS as given: its default does not count as asking.
 */
const productionRules = (
  e: Env,
  rawProviders: string | undefined,
): { production: boolean; problems: string[] } => {
  const production = e.NODE_ENV === 'production' || e.TENPO_PROVIDERS === 'live';
  const problems: string[] = [];
  if (!production) return { production, problems };
  const why = e.TENPO_PROVIDERS === 'live' ? 'TENPO_PROVIDERS=live' : 'NODE_ENV=production';
  if (
    e.TENPO_PROVIDERS === 'sandbox' &&
    !(rawProviders === 'sandbox' && e.TENPO_ALLOW_SANDBOX_IN_PRODUCTION)
  )
    problems.push(
      `TENPO_PROVIDERS: the sandbox emulators are refused when ${why} (their mailbox shows every sign-up and reset link; their payment service signs with a key in the source). Set TENPO_PROVIDERS=live with real credentials, or, for a staging demo only, TENPO_PROVIDERS=sandbox and TENPO_ALLOW_SANDBOX_IN_PRODUCTION=true`,
    );
  if (e.TENPO_SEED_DEMO === true)
    problems.push(
      `TENPO_SEED_DEMO: the demo accounts and their public password are refused when ${why}`,
    );
  if (e.TENPO_API_KEY === DEV_API_KEY)
    problems.push(
      `TENPO_API_KEY: required when ${why} (the development key ${DEV_API_KEY} is public)`,
    );
  if (!e.TENPO_SECRET_KEY)
    problems.push(
      `TENPO_SECRET_KEY: required when ${why} (64 hex characters, the same for every process)`,
    );
  if (!e.SMTP_URL)
    problems.push(
      `SMTP_URL: required when ${why} (without it mail goes to the sandbox mailbox and reaches no one)`,
    );
  if (!e.PUBLIC_URL)
    problems.push(
      `PUBLIC_URL: required when ${why} (the https:// address users open; links in mail and media URLs for providers are built on it)`,
    );
  else {
    const url = new URL(e.PUBLIC_URL);
    if (url.protocol !== 'https:' && !isLoopback(url.hostname))
      problems.push(
        `PUBLIC_URL: must be an https:// URL when ${why} (links in mail carry sign-up and reset tokens)`,
      );
  }
  return { production, problems };
};

/** Live providers need every channel's credentials and the merchant's own SBPS settings. */
const liveProblems = (e: Env): string[] =>
  e.TENPO_PROVIDERS === 'live'
    ? [...LIVE_CREDENTIALS, ...SBPS_LIVE]
        .filter((k) => !e[k])
        .map((k) => `${k}: required when TENPO_PROVIDERS=live`)
    : [];

/** The emulators' credentials (apps/sandbox/README.md). */
const SANDBOX_CLIENT = { id: 'tenpo-sandbox', secret: 'tenpo-sandbox-secret' };

const LIVE_CREDENTIALS = [
  'GOOGLE_CLIENT_ID',
  'GOOGLE_CLIENT_SECRET',
  'FACEBOOK_APP_ID',
  'FACEBOOK_APP_SECRET',
  'X_CLIENT_ID',
  'X_CLIENT_SECRET',
] as const;

/**
 * Base URLs and credentials of every channel: the real hosts with live credentials, or the
 * emulators under SANDBOX_URL (default PUBLIC_URL/sandbox) with the sandbox's own client.
 */
const channelsOf = (e: Env, publicUrl: string): ChannelsConfig => {
  const maxWaitMs = e.CHANNEL_MAX_WAIT_SECONDS * 1000;
  if (e.TENPO_PROVIDERS === 'live') {
    const need = (k: (typeof LIVE_CREDENTIALS)[number]): string => e[k] as string;
    return {
      google: {
        accountsUrl: 'https://accounts.google.com',
        oauth2Url: 'https://oauth2.googleapis.com',
        accountManagementUrl: 'https://mybusinessaccountmanagement.googleapis.com',
        businessInformationUrl: 'https://mybusinessbusinessinformation.googleapis.com',
        performanceUrl: 'https://businessprofileperformance.googleapis.com',
        myBusinessUrl: 'https://mybusiness.googleapis.com',
        clientId: need('GOOGLE_CLIENT_ID'),
        clientSecret: need('GOOGLE_CLIENT_SECRET'),
      },
      facebook: {
        wwwUrl: 'https://www.facebook.com',
        graphUrl: 'https://graph.facebook.com',
        graphVersion: e.FACEBOOK_GRAPH_VERSION,
        appId: need('FACEBOOK_APP_ID'),
        appSecret: need('FACEBOOK_APP_SECRET'),
      },
      x: {
        wwwUrl: 'https://x.com',
        apiUrl: 'https://api.x.com',
        clientId: need('X_CLIENT_ID'),
        clientSecret: need('X_CLIENT_SECRET'),
      },
      maxWaitMs,
    };
  }
  const s = (e.SANDBOX_URL ?? `${publicUrl}/sandbox`).replace(/\/+$/, '');
  return {
    google: {
      accountsUrl: `${s}/google/accounts`,
      oauth2Url: `${s}/google/oauth2`,
      accountManagementUrl: `${s}/google/mybusinessaccountmanagement`,
      businessInformationUrl: `${s}/google/mybusinessbusinessinformation`,
      performanceUrl: `${s}/google/businessprofileperformance`,
      myBusinessUrl: `${s}/google/mybusiness`,
      clientId: SANDBOX_CLIENT.id,
      clientSecret: SANDBOX_CLIENT.secret,
    },
    facebook: {
      wwwUrl: `${s}/facebook/www`,
      graphUrl: `${s}/facebook/graph`,
      graphVersion: e.FACEBOOK_GRAPH_VERSION,
      appId: SANDBOX_CLIENT.id,
      appSecret: SANDBOX_CLIENT.secret,
    },
    x: {
      wwwUrl: `${s}/x`,
      apiUrl: `${s}/x/api`,
      clientId: SANDBOX_CLIENT.id,
      clientSecret: SANDBOX_CLIENT.secret,
    },
    maxWaitMs,
  };
};

/**
 * The sandbox's SBPS merchant (payments contract §1): the emulator knows the same constants.
 * The password of the XML API's Basic auth is the hash key there.
 */
export const SANDBOX_SBPS = {
  merchantId: '30132',
  serviceId: '103',
  hashKey: 'tenposandboxhashkey000000000000000000000',
  basicId: '30132103',
  basicPassword: 'tenposandboxhashkey000000000000000000000',
  desKey: 'tenposandbox3deskey00000',
  desIv: 'tenpo-iv',
} as const;

const SBPS_LIVE = [
  'SBPS_MERCHANT_ID',
  'SBPS_SERVICE_ID',
  'SBPS_HASH_KEY',
  'SBPS_BASIC_ID',
  'SBPS_BASIC_PASSWORD',
  'SBPS_3DES_KEY',
  'SBPS_3DES_IV',
  'SBPS_PURCHASE_URL',
  'SBPS_API_URL',
  'SBPS_TOKEN_SCRIPT_URL',
] as const;

/**
 * SBPS's URLs and credentials: all given when live (SBPS tells each merchant its own at
 * onboarding), else the sandbox's merchant under SANDBOX_URL, any of them overridable.
 */
const paymentsOf = (e: Env, publicUrl: string): PaymentsConfig => {
  const s = (e.SANDBOX_URL ?? `${publicUrl}/sandbox`).replace(/\/+$/, '');
  return {
    sbps: {
      merchantId: e.SBPS_MERCHANT_ID ?? SANDBOX_SBPS.merchantId,
      serviceId: e.SBPS_SERVICE_ID ?? SANDBOX_SBPS.serviceId,
      hashKey: e.SBPS_HASH_KEY ?? SANDBOX_SBPS.hashKey,
      basicId: e.SBPS_BASIC_ID ?? SANDBOX_SBPS.basicId,
      basicPassword: e.SBPS_BASIC_PASSWORD ?? SANDBOX_SBPS.basicPassword,
      desKey: e.SBPS_3DES_KEY ?? SANDBOX_SBPS.desKey,
      desIv: e.SBPS_3DES_IV ?? SANDBOX_SBPS.desIv,
      purchaseUrl: e.SBPS_PURCHASE_URL ?? `${s}/sbps/f01/FepBuyInfoReceive.do`,
      apiUrl: e.SBPS_API_URL ?? `${s}/sbps/api/xmlapi.do`,
      tokenScriptUrl: e.SBPS_TOKEN_SCRIPT_URL ?? `${s}/sbps/sbpstoken/com_sbps_system_token.js`,
      timeoutMs: 30_000,
    },
    prices: { 1: e.PLAN_STANDARD_PRICE, 2: e.PLAN_PREMIUM_PRICE },
    billingHour: e.BILLING_HOUR,
  };
};

/** The sandbox's model (apps/sandbox/src/llm): its name and the key it asks for. */
export const SANDBOX_LLM = { model: 'tenpo-sandbox-chat', apiKey: SANDBOX_CLIENT.secret } as const;

/**
 * Language-model drafts (ADR 0091): the server LLM_BASE_URL names (LLM_MODEL required); else, in
 * sandbox mode, the sandbox's own model, as every provider's URL defaults there; else off.
 * LLM_DRAFTS=false turns them off in any mode.
 */
const llmOf = (e: Env, publicUrl: string): LlmConfig | null => {
  if (e.LLM_DRAFTS === false) return null;
  const timeoutMs = e.LLM_TIMEOUT_SECONDS * 1000;
  if (e.LLM_BASE_URL)
    return {
      baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''),
      apiKey: e.LLM_API_KEY ?? null,
      model: e.LLM_MODEL as string,
      timeoutMs,
    };
  if (e.TENPO_PROVIDERS !== 'sandbox') return null;
  const s = (e.SANDBOX_URL ?? `${publicUrl}/sandbox`).replace(/\/+$/, '');
  return {
    baseUrl: `${s}/llm/v1`,
    apiKey: e.LLM_API_KEY ?? SANDBOX_LLM.apiKey,
    model: e.LLM_MODEL ?? SANDBOX_LLM.model,
    timeoutMs,
  };
};

const llmProblems = (e: Env, production: boolean): string[] => {
  const problems: string[] = [];
  if (e.LLM_BASE_URL && !e.LLM_MODEL && e.LLM_DRAFTS !== false)
    problems.push('LLM_MODEL: required when LLM_BASE_URL is set (the model the server runs)');
  if (e.LLM_DRAFTS === true && !e.LLM_BASE_URL && e.TENPO_PROVIDERS === 'live')
    problems.push('LLM_DRAFTS: needs LLM_BASE_URL and LLM_MODEL when TENPO_PROVIDERS=live');
  if (production && e.LLM_BASE_URL && e.LLM_API_KEY) {
    const url = new URL(e.LLM_BASE_URL);
    if (url.protocol !== 'https:' && !isLoopback(url.hostname))
      problems.push(
        'LLM_BASE_URL: must be an https:// URL when LLM_API_KEY is set in production (the key would travel in clear)',
      );
  }
  return problems;
};

/** Where media are kept (ADR 0021); the drivers are in `storage/`. */
export type StorageConfig = Readonly<
  { private: boolean; urlTtlSeconds: number } & (
    | { driver: 'local'; root: string }
    | {
        driver: 's3';
        endpoint: string | null;
        bucket: string;
        region: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
        publicUrl: string | null;
      }
  )
>;

const storageProblems = (e: Env): string[] => {
  if (e.STORAGE_DRIVER !== 's3') return [];
  const problems = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
    .filter((k) => !e[k])
    .map((k) => `${k}: required when STORAGE_DRIVER=s3`);
  if (!e.STORAGE_PRIVATE && !e.S3_PUBLIC_URL)
    problems.push(
      'S3_PUBLIC_URL: required when STORAGE_DRIVER=s3 and STORAGE_PRIVATE is false (providers fetch media there); or set STORAGE_PRIVATE=true for presigned URLs',
    );
  return problems;
};

const storageOf = (e: Env, dataDir: string): StorageConfig => {
  const common = { private: e.STORAGE_PRIVATE, urlTtlSeconds: e.STORAGE_URL_TTL_SECONDS };
  if (e.STORAGE_DRIVER === 'local')
    return { ...common, driver: 'local', root: path.join(dataDir, 'uploads') };
  return {
    ...common,
    driver: 's3',
    endpoint: e.S3_ENDPOINT ?? null,
    bucket: e.S3_BUCKET as string,
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID as string,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY as string,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    publicUrl: e.S3_PUBLIC_URL ? e.S3_PUBLIC_URL.replace(/\/+$/, '') : null,
  };
};

const mapOf = (e: Env): MapConfig | null =>
  e.MAP_TILE_URL && e.MAP_ATTRIBUTION
    ? Object.freeze({
        tileUrl: e.MAP_TILE_URL,
        attribution: e.MAP_ATTRIBUTION,
        origin: new URL(e.MAP_TILE_URL.replace(/\{[a-z]\}/g, '0')).origin,
      })
    : null;

/**
 * Each variable on its own, so that one bad value does not hide the others: the values that
 * parse (defaults applied) and one line per variable that does not.
 */
const parseEach = (
  env: Record<string, string | undefined>,
): { e: Env; issues: { name: string; line: string }[] } => {
  const values: Record<string, unknown> = {};
  const issues: { name: string; line: string }[] = [];
  for (const [name, schema] of Object.entries(envSchema.shape)) {
    const r = schema.safeParse(env[name]);
    if (r.success) values[name] = r.data;
    else for (const i of r.error.issues) issues.push({ name, line: `${name}: ${i.message}` });
  }
  // A variable that failed is undefined here; the cross-variable rules then may only add lines
  // about variables without an issue of their own (loadConfig drops the rest).
  return { e: values as Env, issues };
};

/**
 * Parses the environment once into a frozen object. A bad value stops start-up with one
 * message naming every variable at fault, before anything is written. Nothing else in the API
 * reads process.env.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const { e, issues } = parseEach(env);
  const { production, problems: rules } = productionRules(e, env.TENPO_PROVIDERS);
  if (e.TENPO_JOB_DRIVER === 'pg-boss' && !/^postgres(ql)?:\/\//.test(e.DATABASE_URL ?? ''))
    rules.push('TENPO_JOB_DRIVER: pg-boss needs DATABASE_URL to be a postgres:// URL');
  if (e.MAP_TILE_URL && !e.MAP_ATTRIBUTION)
    rules.push(
      'MAP_ATTRIBUTION: required when MAP_TILE_URL is set (tile servers require their attribution on the map)',
    );
  rules.push(...liveProblems(e), ...storageProblems(e), ...llmProblems(e, production));
  const invalid = new Set(issues.map((i) => i.name));
  const problems = [
    ...issues.map((i) => i.line),
    ...rules.filter((line) => !invalid.has(line.slice(0, line.indexOf(':')))),
  ];
  if (problems.length > 0)
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const channels = channelsOf(e, publicUrl);
  const payments = paymentsOf(e, publicUrl);
  const dataDir = path.resolve(e.DATA_DIR);
  const storage = storageOf(e, dataDir);
  const llm = llmOf(e, publicUrl);
  fs.mkdirSync(dataDir, { recursive: true });
  return Object.freeze({
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'tenpo.sqlite')}`,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? null,
    publicUrl,
    providers: e.TENPO_PROVIDERS,
    sandboxMount:
      e.TENPO_PROVIDERS === 'live' || e.SANDBOX_URL ? 'none' : production ? 'api-key' : 'open',
    sandboxUrl:
      e.TENPO_PROVIDERS === 'sandbox' && e.SANDBOX_URL ? e.SANDBOX_URL.replace(/\/+$/, '') : null,
    channels: deepFreeze(channels),
    secretKey: loadSecretKey(dataDir, e.TENPO_SECRET_KEY),
    apiKey: e.TENPO_API_KEY,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    rateLimitAuthPerMinute: e.RATE_LIMIT_AUTH_PER_MINUTE,
    uploadsInFlight: Object.freeze({
      perUser: e.UPLOAD_INFLIGHT_USER_MB * 1024 * 1024,
      perProcess: e.UPLOAD_INFLIGHT_PROCESS_MB * 1024 * 1024,
    }),
    runWorker: e.TENPO_WORKER,
    jobs: Object.freeze({
      driver:
        e.TENPO_JOB_DRIVER ??
        (/^postgres(ql)?:\/\//.test(e.DATABASE_URL ?? '') ? 'pg-boss' : 'table'),
      pollMs: e.JOB_POLL_MS,
      leaseMs: e.JOB_LEASE_SECONDS * 1000,
    }),
    migrationWaitMs: e.MIGRATION_WAIT_SECONDS * 1000,
    metricsSyncHour: e.METRICS_SYNC_HOUR,
    reviewsSyncMinutes: e.REVIEWS_SYNC_MINUTES,
    llm: llm ? Object.freeze(llm) : null,
    seedDemo: e.TENPO_SEED_DEMO ?? !production,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : null,
    storage: Object.freeze(storage),
    map: mapOf(e),
    helpUrl: e.HELP_URL,
    payments: deepFreeze(payments),
    ops: Object.freeze({
      workerHealthPort: e.WORKER_HEALTH_PORT,
      drainMs: (e.SHUTDOWN_DRAIN_SECONDS ?? (e.NODE_ENV === 'production' ? 10 : 0)) * 1000,
      metricsPort: e.METRICS_PORT ?? null,
      metricsToken: e.METRICS_TOKEN ?? null,
    }),
  });
}

/**
 * The PostgreSQL pool of a process (issue 26 P9): DATABASE_POOL_SIZE, else 10 for an API process
 * and 20 for one that runs jobs: 16 publish jobs at once each hold a connection for their
 * statements, and with 10 they queued for one (3.2 ms a wait, 14 waits a publish in bench/scale.ts).
 */
export const databasePoolSizeOf = (config: Config, runsJobs = config.runWorker): number =>
  config.databasePoolSize ?? (runsJobs ? 20 : 10);
