import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_API_KEY, databasePoolSizeOf, loadConfig } from './config';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-config-'));

/** A live deployment: every provider credential and SBPS setting given. */
const live = {
  TENPO_PROVIDERS: 'live',
  TENPO_SECRET_KEY: 'ab'.repeat(32),
  TENPO_API_KEY: 'a-production-key',
  GOOGLE_CLIENT_ID: 'g-id',
  GOOGLE_CLIENT_SECRET: 'g-secret',
  FACEBOOK_APP_ID: 'fb-id',
  FACEBOOK_APP_SECRET: 'fb-secret',
  X_CLIENT_ID: 'x-id',
  X_CLIENT_SECRET: 'x-secret',
  SBPS_MERCHANT_ID: '12345',
  SBPS_SERVICE_ID: '001',
  SBPS_HASH_KEY: 'k'.repeat(40),
  SBPS_BASIC_ID: '12345001',
  SBPS_BASIC_PASSWORD: 'basic-secret',
  SBPS_3DES_KEY: 'd'.repeat(24),
  SBPS_3DES_IV: 'i'.repeat(8),
  SBPS_PURCHASE_URL: 'https://fep.sps-system.com/f01/FepBuyInfoReceive.do',
  SBPS_API_URL: 'https://api.sps-system.com/api/xmlapi.do',
  SBPS_TOKEN_SCRIPT_URL: 'https://token.sps-system.com/sbpstoken/com_sbps_system_token.js',
  SMTP_URL: 'smtps://mailer:secret@smtp.tenpo.example:465',
  PUBLIC_URL: 'https://tenpo.example',
};

/** A staging demo: production with the emulators asked for by name (ADR 0051). */
const prod = {
  NODE_ENV: 'production',
  TENPO_SECRET_KEY: 'cd'.repeat(32),
  TENPO_API_KEY: 'a-production-key',
  TENPO_PROVIDERS: 'sandbox',
  TENPO_ALLOW_SANDBOX_IN_PRODUCTION: 'true',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  PUBLIC_URL: 'https://staging.tenpo.example',
};

const problemsOf = (env: Record<string, string | undefined>): string[] => {
  try {
    loadConfig({ DATA_DIR: tmp(), ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const [head, ...lines] = (err as Error).message.split('\n');
    expect(head).toBe('Invalid configuration:');
    return lines.map((l) => l.trim());
  }
  return [];
};
const names = (lines: string[]) => lines.map((l) => l.slice(0, l.indexOf(':')));

describe('loadConfig: defaults, the secret key and malformed values', () => {
  it('has embedded defaults: SQLite in DATA_DIR, the sandbox, the development API key', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      port: 3000,
      providers: 'sandbox',
      apiKey: DEV_API_KEY,
      publicUrl: 'http://localhost:3000',
      smtpUrl: null,
    });
    expect(c.databaseUrl).toBe(`sqlite:${path.join(dir, 'tenpo.sqlite')}`);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('generates the secret key on first start and reuses it', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.secretKey.length).toBe(32);
    expect(b.secretKey.equals(a.secretKey)).toBe(true);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ TENPO_SECRET_KEY: 'short' }, 'TENPO_SECRET_KEY'],
    [{ TENPO_PROVIDERS: 'prod' }, 'TENPO_PROVIDERS'],
    [{ TENPO_API_KEY: 'abc' }, 'TENPO_API_KEY'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ DATABASE_POOL_SIZE: '1' }, 'DATABASE_POOL_SIZE'],
  ])('stops on %o with a message naming %s', (env, name) => {
    const run = () => loadConfig({ DATA_DIR: tmp(), ...env });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  it('sizes the PostgreSQL pool: 10, 20 where jobs run, or DATABASE_POOL_SIZE', () => {
    const api = loadConfig({ DATA_DIR: tmp(), TENPO_WORKER: 'false' });
    const both = loadConfig({ DATA_DIR: tmp() });
    const set = loadConfig({ DATA_DIR: tmp(), DATABASE_POOL_SIZE: '32' });
    expect([databasePoolSizeOf(api), databasePoolSizeOf(api, true)]).toEqual([10, 20]);
    expect(databasePoolSizeOf(both)).toBe(20);
    expect([databasePoolSizeOf(set), databasePoolSizeOf(set, false)]).toEqual([32, 32]);
  });

  it('takes PostgreSQL, PUBLIC_URL and the port from the environment', () => {
    const c = loadConfig({
      DATA_DIR: tmp(),
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db/tenpo',
      PUBLIC_URL: 'https://tenpo.example/',
    });
    expect(c).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u@db/tenpo',
      publicUrl: 'https://tenpo.example',
    });
  });
});

describe('loadConfig: channels and payments', () => {
  it('points every channel at the emulators under PUBLIC_URL/sandbox with the sandbox client', () => {
    const c = loadConfig({ DATA_DIR: tmp(), PUBLIC_URL: 'https://tenpo.example' });
    expect(c.channels.google).toMatchObject({
      accountsUrl: 'https://tenpo.example/sandbox/google/accounts',
      oauth2Url: 'https://tenpo.example/sandbox/google/oauth2',
      businessInformationUrl: 'https://tenpo.example/sandbox/google/mybusinessbusinessinformation',
      clientId: 'tenpo-sandbox',
      clientSecret: 'tenpo-sandbox-secret',
    });
    expect(c.channels.facebook).toMatchObject({
      graphUrl: 'https://tenpo.example/sandbox/facebook/graph',
      graphVersion: 'v25.0',
      appId: 'tenpo-sandbox',
    });
    expect(c.channels.x.apiUrl).toBe('https://tenpo.example/sandbox/x/api');
    expect(Object.isFrozen(c.channels.google)).toBe(true);
  });

  it('takes SANDBOX_URL for emulators that run elsewhere', () => {
    const c = loadConfig({ DATA_DIR: tmp(), SANDBOX_URL: 'http://127.0.0.1:4010/' });
    expect(c.channels.x.wwwUrl).toBe('http://127.0.0.1:4010/x');
  });

  it('pays through the sandbox merchant under SANDBOX_URL by default, at the spec prices', () => {
    const c = loadConfig({ DATA_DIR: tmp(), SANDBOX_URL: 'http://127.0.0.1:4010/' });
    expect(c.payments).toEqual({
      sbps: {
        merchantId: '30132',
        serviceId: '103',
        hashKey: 'tenposandboxhashkey000000000000000000000',
        basicId: '30132103',
        basicPassword: 'tenposandboxhashkey000000000000000000000',
        desKey: 'tenposandbox3deskey00000',
        desIv: 'tenpo-iv',
        purchaseUrl: 'http://127.0.0.1:4010/sbps/f01/FepBuyInfoReceive.do',
        apiUrl: 'http://127.0.0.1:4010/sbps/api/xmlapi.do',
        tokenScriptUrl: 'http://127.0.0.1:4010/sbps/sbpstoken/com_sbps_system_token.js',
        timeoutMs: 30_000,
      },
      prices: { 1: 6980, 2: 20000 },
      billingHour: 10,
    });
    expect(c.payments.sbps.hashKey).toHaveLength(40);
    expect(Object.isFrozen(c.payments.sbps)).toBe(true);
  });

  it('reads prices, the billing hour and SBPS settings', () => {
    const c = loadConfig({
      DATA_DIR: tmp(),
      PLAN_STANDARD_PRICE: '7000',
      PLAN_PREMIUM_PRICE: '21000',
      BILLING_HOUR: '3',
    });
    expect(c.payments.prices).toEqual({ 1: 7000, 2: 21000 });
    expect(c.payments.billingHour).toBe(3);
  });

  it.each([
    [{ SBPS_MERCHANT_ID: '1234' }, 'SBPS_MERCHANT_ID'],
    [{ SBPS_SERVICE_ID: 'abc' }, 'SBPS_SERVICE_ID'],
    [{ SBPS_3DES_KEY: 'short' }, 'SBPS_3DES_KEY'],
    [{ SBPS_3DES_IV: 'short' }, 'SBPS_3DES_IV'],
    [{ SBPS_API_URL: 'ftp://x' }, 'SBPS_API_URL'],
    [{ BILLING_HOUR: '24' }, 'BILLING_HOUR'],
    [{ PLAN_STANDARD_PRICE: '0' }, 'PLAN_STANDARD_PRICE'],
  ])('stops on %o, naming %s', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: tmp(), ...env })).toThrow(new RegExp(`${name}: `));
  });

  it('uses the real hosts and the given credentials when live', () => {
    const c = loadConfig({ DATA_DIR: tmp(), ...live, FACEBOOK_GRAPH_VERSION: 'v26.0' });
    expect(c.channels.google).toMatchObject({
      accountsUrl: 'https://accounts.google.com',
      oauth2Url: 'https://oauth2.googleapis.com',
      clientId: 'g-id',
      clientSecret: 'g-secret',
    });
    expect(c.channels.facebook).toMatchObject({
      graphUrl: 'https://graph.facebook.com',
      graphVersion: 'v26.0',
      appSecret: 'fb-secret',
    });
    expect(c.channels.x).toMatchObject({ apiUrl: 'https://api.x.com', clientId: 'x-id' });
    expect(c.payments.sbps).toMatchObject({
      merchantId: '12345',
      serviceId: '001',
      apiUrl: 'https://api.sps-system.com/api/xmlapi.do',
      basicPassword: 'basic-secret',
    });
  });

  it.each(Object.keys(live).filter((k) => k !== 'TENPO_PROVIDERS'))(
    'stops when live and %s is missing, naming it',
    (name) => {
      const env: Record<string, string> = { DATA_DIR: tmp(), ...live };
      delete env[name];
      expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
    },
  );

  it('stops on a malformed FACEBOOK_GRAPH_VERSION', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), FACEBOOK_GRAPH_VERSION: '25' })).toThrow(
      /FACEBOOK_GRAPH_VERSION: /,
    );
  });
});

describe('loadConfig: production (NODE_ENV=production or live providers)', () => {
  it('starts with a secret key and an API key of its own, and seeds no demo data', () => {
    const c = loadConfig({ DATA_DIR: tmp(), ...prod });
    expect(c.seedDemo).toBe(false);
    expect(c.env).toBe('production');
    const l = loadConfig({ DATA_DIR: tmp(), ...live });
    expect(l.seedDemo).toBe(false);
  });

  it('development keeps seeding the demo data by default', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), TENPO_SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it.each([
    [{ TENPO_SECRET_KEY: undefined }, 'TENPO_SECRET_KEY'],
    [{ TENPO_API_KEY: undefined }, 'TENPO_API_KEY'],
    [{ TENPO_API_KEY: DEV_API_KEY }, 'TENPO_API_KEY'],
    [{ TENPO_SEED_DEMO: 'true' }, 'TENPO_SEED_DEMO'],
  ])('refuses %o, naming %s', (change, name) => {
    for (const base of [prod, live]) {
      const dir = tmp();
      expect(() => loadConfig({ DATA_DIR: dir, ...base, ...change })).toThrow(
        new RegExp(`^Invalid configuration:\\n  ${name}: `),
      );
      // Refused before anything is written: no secret key generated into the data folder.
      expect(fs.existsSync(path.join(dir, 'secret.key'))).toBe(false);
    }
  });

  it('names every problem at once', () => {
    const run = () => loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' });
    expect(run).toThrow(/TENPO_API_KEY: required when NODE_ENV=production/);
    expect(run).toThrow(/TENPO_SECRET_KEY: required when NODE_ENV=production/);
  });

  it('refuses a production start with the default providers, naming what to set', () => {
    const lines = problemsOf({ NODE_ENV: 'production' });
    expect(names(lines)).toEqual([
      'TENPO_PROVIDERS',
      'TENPO_API_KEY',
      'TENPO_SECRET_KEY',
      'SMTP_URL',
      'PUBLIC_URL',
    ]);
    expect(lines[0]).toMatch(
      /^TENPO_PROVIDERS: the sandbox emulators are refused when NODE_ENV=production .*TENPO_PROVIDERS=live.*TENPO_PROVIDERS=sandbox and TENPO_ALLOW_SANDBOX_IN_PRODUCTION=true/,
    );
  });
});

describe('loadConfig: production, every problem named in one error', () => {
  it.each([
    ['the default providers', { TENPO_PROVIDERS: undefined }, ['TENPO_PROVIDERS']],
    [
      'the default providers with the opt-in',
      { TENPO_PROVIDERS: undefined, TENPO_ALLOW_SANDBOX_IN_PRODUCTION: 'true' },
      ['TENPO_PROVIDERS'],
    ],
    [
      'the sandbox by name without the opt-in',
      { TENPO_ALLOW_SANDBOX_IN_PRODUCTION: undefined },
      ['TENPO_PROVIDERS'],
    ],
    [
      'the sandbox by name, opt-in false',
      { TENPO_ALLOW_SANDBOX_IN_PRODUCTION: 'false' },
      ['TENPO_PROVIDERS'],
    ],
    ['no SMTP_URL', { SMTP_URL: undefined }, ['SMTP_URL']],
    ['no PUBLIC_URL', { PUBLIC_URL: undefined }, ['PUBLIC_URL']],
    ['a plain-http PUBLIC_URL', { PUBLIC_URL: 'http://tenpo.example' }, ['PUBLIC_URL']],
    ['a malformed PUBLIC_URL, named once', { PUBLIC_URL: 'nope' }, ['PUBLIC_URL']],
    ['a short secret key, named once', { TENPO_SECRET_KEY: 'short' }, ['TENPO_SECRET_KEY']],
    [
      'neither mail nor address',
      { SMTP_URL: undefined, PUBLIC_URL: undefined },
      ['SMTP_URL', 'PUBLIC_URL'],
    ],
  ])('refuses %s, naming %j', (_what, change, expected) => {
    expect(names(problemsOf({ ...prod, ...change }))).toEqual(expected);
  });

  it('says why an http PUBLIC_URL is refused, and allows it on a loopback host', () => {
    expect(problemsOf({ ...prod, PUBLIC_URL: 'http://tenpo.example' })).toEqual([
      'PUBLIC_URL: must be an https:// URL when NODE_ENV=production (links in mail carry sign-up and reset tokens)',
    ]);
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000'])
      expect(problemsOf({ ...prod, PUBLIC_URL: url }), url).toEqual([]);
    expect(problemsOf({ ...live, PUBLIC_URL: 'http://tenpo.example' })).toEqual([
      'PUBLIC_URL: must be an https:// URL when TENPO_PROVIDERS=live (links in mail carry sign-up and reset tokens)',
    ]);
  });

  it('requires SMTP_URL and PUBLIC_URL when live too', () => {
    expect(problemsOf({ ...live, SMTP_URL: undefined, PUBLIC_URL: undefined })).toEqual([
      'SMTP_URL: required when TENPO_PROVIDERS=live (without it mail goes to the sandbox mailbox and reaches no one)',
      'PUBLIC_URL: required when TENPO_PROVIDERS=live (the https:// address users open; links in mail and media URLs for providers are built on it)',
    ]);
  });

  it.each([
    ['development', {}, 'open'],
    ['development with SANDBOX_URL', { SANDBOX_URL: 'http://127.0.0.1:4010' }, 'none'],
    ['a staging demo', prod, 'api-key'],
    ['a staging demo with SANDBOX_URL', { ...prod, SANDBOX_URL: 'https://sb.example' }, 'none'],
    ['live', live, 'none'],
  ])('mounts the emulators in-process for %s: %s', (_what, env, mount) => {
    expect(loadConfig({ DATA_DIR: tmp(), ...env }).sandboxMount).toBe(mount);
  });

  it('lists every problem of every kind in one error, schema issues first', () => {
    const lines = problemsOf({
      NODE_ENV: 'production',
      TENPO_PROVIDERS: 'live',
      PORT: 'eighty',
      TENPO_API_KEY: DEV_API_KEY,
      STORAGE_DRIVER: 's3',
      STORAGE_PRIVATE: 'true',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      MAP_TILE_URL: 'https://t.example/{z}/{x}/{y}.png',
    });
    expect(names(lines)).toEqual([
      'PORT',
      'TENPO_API_KEY',
      'TENPO_SECRET_KEY',
      'SMTP_URL',
      'PUBLIC_URL',
      'MAP_ATTRIBUTION',
      'GOOGLE_CLIENT_ID',
      'GOOGLE_CLIENT_SECRET',
      'FACEBOOK_APP_ID',
      'FACEBOOK_APP_SECRET',
      'X_CLIENT_ID',
      'X_CLIENT_SECRET',
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
      'S3_BUCKET',
    ]);
  });

  it('reports several malformed values together', () => {
    expect(
      names(problemsOf({ PORT: 'eighty', SMTP_URL: 'http://mail', BILLING_HOUR: '24' })),
    ).toEqual(['PORT', 'SMTP_URL', 'BILLING_HOUR']);
  });
});

describe('loadConfig: TRUST_PROXY', () => {
  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8, 192.168.1.1', ['10.0.0.0/8', '192.168.1.1']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('trusts no proxy by default and refuses a malformed TRUST_PROXY', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).trustProxy).toBe(false);
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'everyone' })).toThrow(
      /^Invalid configuration:\n {2}TRUST_PROXY: /,
    );
  });
});

describe('loadConfig: the help site (HELP_URL, issue 23 item 10)', () => {
  it('defaults to the help site linked so far, and takes another http(s) URL', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).helpUrl).toBe('https://help.tenpo.example/');
    expect(
      loadConfig({ DATA_DIR: tmp(), HELP_URL: 'https://support.example.jp/tenpo/' }).helpUrl,
    ).toBe('https://support.example.jp/tenpo/');
  });

  it.each(['javascript:alert(1)', 'help.example.jp', 'ftp://help.example.jp/'])(
    'refuses HELP_URL=%s',
    (url) => {
      expect(() => loadConfig({ DATA_DIR: tmp(), HELP_URL: url })).toThrow(
        /^Invalid configuration:\n {2}HELP_URL: must be an http\(s\) URL/,
      );
    },
  );
});

describe('loadConfig: the store map tiles (ADR 0042)', () => {
  it('has none by default: the map draws offline outlines', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).map).toBeNull();
  });

  it('takes a {z}/{x}/{y} template and its attribution, and the origin for the CSP', () => {
    const c = loadConfig({
      DATA_DIR: tmp(),
      MAP_TILE_URL: 'https://tiles.example.jp:8443/osm/{z}/{x}/{y}.png?key=k',
      MAP_ATTRIBUTION: '© OpenStreetMap contributors',
    });
    expect(c.map).toEqual({
      tileUrl: 'https://tiles.example.jp:8443/osm/{z}/{x}/{y}.png?key=k',
      attribution: '© OpenStreetMap contributors',
      origin: 'https://tiles.example.jp:8443',
    });
  });

  it.each([
    ['https://tiles.example/{z}/{x}.png', 'no {y}'],
    ['https://{s}.tiles.example/{z}/{x}/{y}.png', '{s} needs a CSP wildcard'],
    ['ftp://tiles.example/{z}/{x}/{y}.png', 'not http(s)'],
    ['/tiles/{z}/{x}/{y}.png', 'not absolute'],
  ])('refuses MAP_TILE_URL=%s (%s)', (url) => {
    expect(() => loadConfig({ DATA_DIR: tmp(), MAP_TILE_URL: url, MAP_ATTRIBUTION: 'x' })).toThrow(
      /^Invalid configuration:\n {2}MAP_TILE_URL: must be an http/,
    );
  });

  it('requires the attribution with a tile server', () => {
    expect(() =>
      loadConfig({ DATA_DIR: tmp(), MAP_TILE_URL: 'https://t.example/{z}/{x}/{y}.png' }),
    ).toThrow(/MAP_ATTRIBUTION: required when MAP_TILE_URL is set/);
  });
});
