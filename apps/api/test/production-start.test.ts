import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_PROVIDERS, buildBundles } from './bundle';
import { freePort } from './sandbox';

// The compiled server as `npm start` runs it (scripts/build-server.mjs), started as a process:
// production refuses to start unsafe, names the variable, and writes nothing first.
let dir: string;
let bundle: string;

const live = {
  ...LIVE_PROVIDERS,
  TENPO_API_KEY: 'a-production-key',
  SMTP_URL: 'smtp://127.0.0.1:9',
  PUBLIC_URL: 'https://tenpo.example',
};

/** Only what a process needs, so that no TENPO_* of the developer's shell leaks in. */
const baseEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? os.tmpdir(),
  LOG_LEVEL: 'warn',
});

type Exit = { code: number | null; stderr: string; stdout: string };
const runToExit = (file: string, env: Record<string, string>): Promise<Exit> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { env: { ...baseEnv(), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

let out: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-prod-'));
  // Beside apps/api/dist, as deep: the bundle finds node_modules and apps/api/assets as the real
  // one does. (dist-*/ is ignored by git, lint and format.)
  out = buildBundles();
  bundle = path.join(out, 'server.mjs');
}, 60_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});

describe('the production build', () => {
  it('refuses to start with live providers and no secret key, naming TENPO_SECRET_KEY', async () => {
    const data = path.join(dir, 'no-secret');
    const r = await runToExit(bundle, { ...live, DATA_DIR: data });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TENPO_SECRET_KEY: required when TENPO_PROVIDERS=live/);
    expect(fs.existsSync(path.join(data, 'secret.key'))).toBe(false);
    expect(fs.existsSync(path.join(data, 'tenpo.sqlite'))).toBe(false);
  });

  it('refuses the demo seed and the development API key under NODE_ENV=production', async () => {
    const r = await runToExit(bundle, {
      NODE_ENV: 'production',
      DATA_DIR: path.join(dir, 'demo'),
      TENPO_SECRET_KEY: 'ab'.repeat(32),
      TENPO_SEED_DEMO: 'true',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/TENPO_SEED_DEMO: /);
    expect(r.stderr).toMatch(/TENPO_API_KEY: required when NODE_ENV=production/);
  });

  it('refuses the emulators, mail without SMTP and no PUBLIC_URL, all in one message', async () => {
    const data = path.join(dir, 'default-providers');
    const r = await runToExit(bundle, {
      NODE_ENV: 'production',
      DATA_DIR: data,
      TENPO_SECRET_KEY: 'ab'.repeat(32),
      TENPO_API_KEY: 'a-production-key',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /TENPO_PROVIDERS: the sandbox emulators are refused when NODE_ENV=production .*TENPO_PROVIDERS=sandbox and TENPO_ALLOW_SANDBOX_IN_PRODUCTION=true/,
    );
    expect(r.stderr).toMatch(/SMTP_URL: required when NODE_ENV=production/);
    expect(r.stderr).toMatch(/PUBLIC_URL: required when NODE_ENV=production/);
    expect(fs.existsSync(path.join(data, 'tenpo.sqlite'))).toBe(false);
  });

  it('serves the emulators of a staging demo only to callers with the API key', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const key = 'a-staging-key';
    const server = startProcess(bundle, {
      NODE_ENV: 'production',
      TENPO_PROVIDERS: 'sandbox',
      TENPO_ALLOW_SANDBOX_IN_PRODUCTION: 'true',
      TENPO_SECRET_KEY: 'ab'.repeat(32),
      TENPO_API_KEY: key,
      SMTP_URL: 'smtp://127.0.0.1:9',
      PUBLIC_URL: base,
      TENPO_WORKER: 'false',
      DATA_DIR: path.join(dir, 'staging'),
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    try {
      await waitFor('the API', async () =>
        (await fetch(`${base}/api/health`)).status === 200 ? true : null,
      );
      const mail = `${base}/sandbox/mail?format=json`;
      expect((await fetch(mail)).status).toBe(401);
      expect((await fetch(mail, { headers: { 'x-api-key': 'not-the-key' } })).status).toBe(401);
      const ok = await fetch(mail, { headers: { 'x-api-key': key } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ data: [] });
      const once = await fetch(`${mail}&api_key=${key}`, { redirect: 'manual' });
      expect(once.status).toBe(303);
      const cookie = (once.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect((await fetch(mail, { headers: { cookie } })).status).toBe(200);
    } finally {
      expect(await server.stop(), server.output()).toBe(0);
    }
  }, 30_000);

  it('starts when configured, without the demo accounts, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const data = path.join(dir, 'ok');
    const child = spawn(process.execPath, [bundle], {
      env: {
        ...baseEnv(),
        ...live,
        TENPO_SECRET_KEY: 'cd'.repeat(32),
        DATA_DIR: data,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      let health: Response | null = null;
      for (let i = 0; i < 200 && !health; i += 1) {
        health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
        if (!health) await new Promise((r) => setTimeout(r, 100));
      }
      expect(health?.status, stderr).toBe(200);
      const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': live.TENPO_API_KEY },
        body: JSON.stringify({ email: 'manager@tenpo.example', password: 'tenpo-demo-1' }),
      });
      expect(login.status).toBe(401);
      // No sandbox is mounted with live providers.
      expect((await fetch(`http://127.0.0.1:${port}/sandbox/mail`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});

/** Starts a bundle as a process; `stop` sends SIGTERM and resolves with its exit code. */
const startProcess = (file: string, env: Record<string, string>) => {
  const child = spawn(process.execPath, [file], { env: { ...baseEnv(), ...env } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    child,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
};

const waitFor = async <T>(what: string, probe: () => Promise<T | null>, ms = 20_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('the worker build', () => {
  it('alone runs the jobs an API process enqueued, stays up, and stops on SIGTERM', async () => {
    const port = await freePort();
    const data = path.join(dir, 'two-processes');
    const common = { DATA_DIR: data, TENPO_API_KEY: 'two-process-key', LOG_LEVEL: 'warn' };
    // The API process runs no worker: its jobs wait for the worker process.
    const api = startProcess(bundle, {
      ...common,
      TENPO_WORKER: 'false',
      TENPO_SEED_DEMO: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    const base = `http://127.0.0.1:${port}`;
    let worker: ReturnType<typeof startProcess> | null = null;
    try {
      await waitFor('the API', async () =>
        (await fetch(`${base}/api/health`)).status === 200 ? true : null,
      );
      const mails = async () =>
        (
          (await (
            await fetch(`${base}/sandbox/mail?to=shop@tenpo.example&format=json`)
          ).json()) as { data: { subject: string }[] }
        ).data;
      const sent = await fetch(`${base}/api/forgot-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': common.TENPO_API_KEY },
        body: JSON.stringify({ email: 'shop@tenpo.example' }),
      });
      expect(sent.status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await mails()).toEqual([]);

      worker = startProcess(path.join(out, 'worker.mjs'), { ...common, JOB_POLL_MS: '100' });
      const got = await waitFor('the mail, sent by the worker', async () => {
        const list = await mails();
        return list.length > 0 ? list : null;
      });
      expect(got.map((m) => m.subject)).toEqual([expect.stringContaining('パスワード再設定')]);
      // Still up a while later (its timers hold it open), then a clean stop.
      await new Promise((r) => setTimeout(r, 1500));
      expect(worker.child.exitCode, worker.output()).toBeNull();
      expect(await worker.stop(), worker.output()).toBe(0);
    } finally {
      if (worker && worker.child.exitCode === null) worker.child.kill('SIGKILL');
      expect(await api.stop(), api.output()).toBe(0);
    }
  }, 60_000);

  it('does not migrate: on a new database it waits, then stops with a message and creates no table', async () => {
    const data = path.join(dir, 'worker');
    const r = await runToExit(path.join(out, 'worker.mjs'), {
      DATA_DIR: data,
      TENPO_SEED_DEMO: 'false',
      // It waits for the migrations (ADR 0053); a second here.
      MIGRATION_WAIT_SECONDS: '1',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /waiting for migrations 0001-initial, .*: run `npm run migrate` \(or start the API, which migrates\)/,
    );
    // Better-sqlite3 creates the file on open; it holds no table of ours.
    const sqlite = path.join(data, 'tenpo.sqlite');
    if (fs.existsSync(sqlite)) {
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(sqlite, { readonly: true });
      const tables = db.prepare("select name from sqlite_master where type = 'table'").all();
      db.close();
      expect(
        tables.filter((t) => !String((t as { name: string }).name).startsWith('kysely_')),
      ).toEqual([]);
    }
  });
});
