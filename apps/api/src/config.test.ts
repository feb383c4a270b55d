import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_API_KEY, loadConfig } from './config';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-config-'));

describe('loadConfig', () => {
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
  ])('stops on %o with a message naming %s', (env, name) => {
    const run = () => loadConfig({ DATA_DIR: tmp(), ...env });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
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
  };

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

  describe('production (NODE_ENV=production or live providers)', () => {
    const prod = {
      NODE_ENV: 'production',
      TENPO_SECRET_KEY: 'cd'.repeat(32),
      TENPO_API_KEY: 'a-production-key',
    };

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
  });

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

  describe('the store map tiles (ADR 0042)', () => {
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
      expect(() =>
        loadConfig({ DATA_DIR: tmp(), MAP_TILE_URL: url, MAP_ATTRIBUTION: 'x' }),
      ).toThrow(/^Invalid configuration:\n {2}MAP_TILE_URL: must be an http/);
    });

    it('requires the attribution with a tile server', () => {
      expect(() =>
        loadConfig({ DATA_DIR: tmp(), MAP_TILE_URL: 'https://t.example/{z}/{x}/{y}.png' }),
      ).toThrow(/MAP_ATTRIBUTION: required when MAP_TILE_URL is set/);
    });
  });
});
