import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createMailbox, type Mailbox } from '@tenpo/sandbox';
import { buildApp } from '../src/app';
import type { ChannelSet } from '../src/channels';
import { demoSeedFor } from '../src/compose';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, type Db, type DbHandle } from '../src/db/kysely';
import { migrateToLatest } from '../src/db/migrate';
import { DEMO_PASSWORD, seedDemo } from '../src/db/seed';
import { iso } from '../src/lib/clock';
import type { SbpsClient } from '../src/modules/payments/sbps.client';
import { ROLE } from '@tenpo/domain';
import { pgScratch } from './pg-scratch';

export const API_KEY = 'test-api-key-123';

/** SBPS's settings a live configuration must carry (config.ts), with made-up values. */
export const SBPS_LIVE_ENV = {
  SBPS_MERCHANT_ID: '12345',
  SBPS_SERVICE_ID: '001',
  SBPS_HASH_KEY: 'k'.repeat(40),
  SBPS_BASIC_ID: '12345001',
  SBPS_BASIC_PASSWORD: 'basic-secret',
  SBPS_3DES_KEY: 'd'.repeat(24),
  SBPS_3DES_IV: 'i'.repeat(8),
  SBPS_PURCHASE_URL: 'https://fep.sps.example/f01/FepBuyInfoReceive.do',
  SBPS_API_URL: 'https://api.sps.example/api/xmlapi.do',
  SBPS_TOKEN_SCRIPT_URL: 'https://token.sps.example/sbpstoken/com_sbps_system_token.js',
};

export { DEMO_PASSWORD };

/** A clock the test moves by hand. */
export type TestClock = { now: () => Date; advance: (ms: number) => void };
export const testClock = (start = new Date()): TestClock => {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
  };
};

export type TestApp = {
  app: FastifyInstance;
  config: Config;
  database: DbHandle;
  mailbox: Mailbox;
  clock: TestClock;
  close: () => Promise<void>;
};

/**
 * Builds the app on a fresh, migrated, seeded database: a SQLite file by default, or a database
 * of its own on the PostgreSQL of TEST_DATABASE_URL (pg-scratch.ts), so the same suite proves both.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  /** Channels of the test's own making (a short time-out, say); default: from the config. */
  opts: {
    channels?: (config: Config, clock: TestClock) => ChannelSet;
    /** An SBPS of the test's own making (payments); default: the client on config's URLs. */
    sbps?: (config: Config, clock: TestClock) => SbpsClient;
    /** The app's own logger, writing here (with LOG_LEVEL from env); default: no logger. */
    logStream?: { write: (line: string) => void };
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-test-'));
  const pgUrl = process.env.TEST_DATABASE_URL;
  let databaseUrl = `sqlite:${path.join(dataDir, 'test.sqlite')}`;
  let dropSchema: (() => Promise<void>) | null = null;
  if (pgUrl) {
    const scratch = await pgScratch(pgUrl);
    databaseUrl = scratch.url;
    dropSchema = scratch.drop;
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    TENPO_API_KEY: API_KEY,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://tenpo.test',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    // The suite runs on the table driver on PostgreSQL too (pg-boss became the default there in
    // ADR 0053); a test asks for pg-boss by name.
    TENPO_JOB_DRIVER: 'table',
    ...env,
  });
  const clock = testClock();
  const opened = openDatabase(config.databaseUrl);
  // Closing twice is closing once: a test that takes the database away (ops.test's readiness)
  // still gets its data directory and PostgreSQL database removed by close().
  let closing: Promise<void> | null = null;
  const database: DbHandle = { ...opened, close: () => (closing ??= opened.close()) };
  await migrateToLatest(database);
  // As the composition root seeds: the emulators' grants in sandbox mode, none when live.
  await seedDemo(database.db, clock, demoSeedFor(config));
  const mailbox = createMailbox(null);
  const app = await buildApp(config, {
    database,
    clock,
    ...(opts.logStream ? { logStream: opts.logStream } : { logger: false }),
    mail: { send: async (m) => void mailbox.deliver(m) },
    ...(opts.channels ? { channels: opts.channels(config, clock) } : {}),
    ...(opts.sbps ? { sbps: opts.sbps(config, clock) } : {}),
  });
  await app.ready();
  return {
    app,
    config,
    database,
    mailbox,
    clock,
    close: async () => {
      await app.close();
      await database.close();
      if (dropSchema) await dropSchema();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Call = Omit<InjectOptions, 'headers'> & {
  token?: string | null;
  headers?: Record<string, string>;
};

/** An API call as the browser makes it: the API-key header, JSON, and the Bearer token. */
export const call = (app: FastifyInstance, opts: Call): Promise<LightMyRequestResponse> => {
  const { token, headers, ...rest } = opts;
  return app.inject({
    ...rest,
    headers: {
      'x-api-key': API_KEY,
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  } as InjectOptions);
};

export async function login(
  app: FastifyInstance,
  email: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const res = await call(app, { method: 'POST', url: '/api/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: { token: string } }).data.token;
}

export const json = <T = Record<string, unknown>>(res: LightMyRequestResponse): T =>
  res.json() as T;

/** A multipart body for app.inject. */
export function multipart(
  fields: Record<string, string>,
  files: Record<string, { filename: string; type: string; data: Buffer }> = {},
) {
  const boundary = `----tenpo${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  for (const [k, f] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
    );
    parts.push(f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The smallest valid PNG (1×1), padded to a given size inside a tEXt-free trailing comment. */
export const png = (size = 0): Buffer => {
  const base = Buffer.from(
    '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
      '1f15c4890000000d49444154789c6300010000000500010d0a2db40000000049454e44ae426082',
    'hex',
  );
  return size > base.length ? Buffer.concat([base, Buffer.alloc(size - base.length)]) : base;
};

/** A store's stored (sealed) provider credentials for one publisher, as the database holds them. */
export const storedCredentials = (db: Db, userId: number, key: string) =>
  db
    .selectFrom('channel_credentials')
    .selectAll()
    .where('user_id', '=', userId)
    .where('publisher_key', '=', key)
    .executeTakeFirst();

/**
 * A second tenant beside the demo data, for the cross-tenant tests: another agency
 * (`other-agency@tenpo.example`) and its stores (shops, agent code 2002), all with the demo
 * password; optionally a group of those stores led by the first. Answers every user's id by
 * e-mail, the demo's included.
 */
export async function addOtherTenant(
  t: TestApp,
  opts: { stores?: readonly string[]; group?: string } = {},
): Promise<{ ids: Record<string, number>; agencyId: number; groupId: number | null }> {
  const db = t.database.db;
  const now = iso(t.clock.now());
  const { password_hash } = await db
    .selectFrom('users')
    .select('password_hash')
    .where('email', '=', 'shop@tenpo.example')
    .executeTakeFirstOrThrow();
  const base = {
    password_hash,
    name: '他社',
    account_kind: 0,
    is_leader: 0,
    agreed_terms: 1,
    phone: null,
    company_name: '他社',
    store_name: '他社の店',
    logo_url: null,
    agent_code: '2002',
    trial_ends_at: null,
    payment_fail: 0,
    status: 1,
    created_at: now,
    updated_at: now,
  };
  const agency = await db
    .insertInto('users')
    .values({
      ...base,
      email: 'other-agency@tenpo.example',
      role: ROLE.agency,
      account_kind: 1,
      agency_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const stores: number[] = [];
  for (const email of opts.stores ?? ['other-store@tenpo.example']) {
    const row = await db
      .insertInto('users')
      .values({ ...base, email, role: ROLE.shop, agency_id: agency.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    stores.push(row.id);
  }
  let groupId: number | null = null;
  const leader = stores[0];
  if (opts.group && leader !== undefined) {
    const g = await db
      .insertInto('store_groups')
      .values({
        agency_id: agency.id,
        name: opts.group,
        leader_id: leader,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('group_members').values({ group_id: g.id, user_id: leader }).execute();
    await db.updateTable('users').set({ is_leader: 1 }).where('id', '=', leader).execute();
    groupId = g.id;
  }
  const ids: Record<string, number> = {};
  for (const u of await db.selectFrom('users').select(['id', 'email']).execute())
    ids[u.email] = u.id;
  return { ids, agencyId: agency.id, groupId };
}
