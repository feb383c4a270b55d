import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostView } from '@tenpo/domain';
import { buildApp } from '../src/app';
import { composeServer } from '../src/compose';
import { ConfigError, loadConfig } from '../src/config';
import { openDatabase } from '../src/db/kysely';
import { smtpTransport } from '../src/mail/mailer';
import { API_KEY, buildTestApp, call, json, login, multipart, type TestApp } from './helpers';
import { consent, freePort, X_USER } from './sandbox';
import { buildBundles, root } from './bundle';
import { shopWithX } from './posts-harness';

// Issue 20 item 5: the sandbox as a process of its own, the one writer of its state, which
// Tenpo's API processes reach through SANDBOX_URL and SMTP_URL. Started from the bundle
// scripts/build-server.mjs makes (what `npm run sandbox` runs), built here beside apps/api/dist
// so it finds node_modules as the real one does.

let bundle: string;
let out: string;

type SandboxProcess = {
  url: string;
  smtpPort: number;
  child: ChildProcess;
  /** Ends it with a signal and waits for the exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

/** Runs the sandbox process on `dataDir`; rejects with its output if it exits before ready. */
function runSandbox(dataDir: string, port: number, smtpPort: number): Promise<SandboxProcess> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--enable-source-maps', bundle], {
    cwd: root,
    env: {
      ...process.env,
      SANDBOX_PORT: String(port),
      SANDBOX_SMTP_PORT: String(smtpPort),
      SANDBOX_PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.includes('sandbox ready'))
        resolve({
          url,
          smtpPort,
          child,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
  });
}

/** A second process on a data folder in use: its exit code and what it said. */
function runToExit(dataDir: string, port: number, smtpPort: number) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', bundle], {
      cwd: root,
      env: {
        ...process.env,
        SANDBOX_PORT: String(port),
        SANDBOX_SMTP_PORT: String(smtpPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    // Should it start after all, stop it: the test then fails on the exit code.
    const timer = setTimeout(() => child.kill('SIGTERM'), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const CLIENT = { id: 'tenpo-sandbox', secret: 'tenpo-sandbox-secret' };

/** An X user token for the demo X account, straight from the sandbox (as a client would get it). */
async function xToken(base: string): Promise<string> {
  const redirect = 'http://client.test/callback';
  const auth = new URL(`${base}/x/i/oauth2/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: CLIENT.id,
    redirect_uri: redirect,
    scope: 'tweet.read tweet.write users.read offline.access',
    state: 's',
    code_challenge: 'plain-challenge-of-the-test-0123456789abcdefghijkl',
    code_challenge_method: 'plain',
  }))
    auth.searchParams.set(k, v);
  const back = await consent(auth.toString(), { user_id: X_USER, decision: 'allow' });
  const code = back.searchParams.get('code') as string;
  const res = await fetch(`${base}/x/api/2/oauth2/token`, {
    method: 'POST',
    headers: {
      ...FORM,
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect,
      code_verifier: 'plain-challenge-of-the-test-0123456789abcdefghijkl',
    }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`token: ${JSON.stringify(body)}`);
  return body.access_token;
}

const tweetsOf = async (base: string, token: string): Promise<{ id: string; text: string }[]> => {
  const res = await fetch(`${base}/x/api/2/users/${X_USER}/tweets?max_results=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data?: { id: string; text: string }[] }).data ?? [];
};

let dataDir: string;
let sb: SandboxProcess;
let port: number;
let smtpPort: number;
const restart = async (signal: NodeJS.Signals) => {
  await sb.stop(signal);
  sb = await runSandbox(dataDir, port, smtpPort);
};

beforeAll(async () => {
  out = buildBundles();
  bundle = path.join(out, 'sandbox.mjs');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-sandbox-process-'));
  port = await freePort();
  smtpPort = await freePort();
  sb = await runSandbox(dataDir, port, smtpPort);
}, 60_000);
afterAll(async () => {
  await sb?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});

describe('the sandbox as its own process', () => {
  let a: TestApp | undefined;
  afterAll(async () => {
    await a?.close();
  });

  it('takes Tenpo’s publish, and keeps it through kill -9, as its own API shows', async () => {
    a = await buildTestApp({ SANDBOX_URL: sb.url });
    const t = a;
    const { shop, token } = await shopWithX(t);
    const text = `別プロセスのサンドボックスへ ${Date.now()}`;
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/posts',
      token,
      ...multipart({ user_id: String(shop), content: text, shared_sns_type: 'twitter' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const post = json<{ data: { posts: PostView[] } }>(res).data.posts[0] as PostView;
    await t.app.queue.drain();
    const view = await call(t.app, {
      method: 'GET',
      url: `/api/posts/${post.id}?user_id=${shop}`,
      token,
    });
    expect(json<{ data: PostView[] }>(view).data[0]?.targets[0]?.state).toBe('published');

    // Tenpo shows it published: a crash of the sandbox right now must not lose it.
    await restart('SIGKILL');
    const seen = await tweetsOf(sb.url, await xToken(sb.url));
    expect(seen.map((x) => x.text)).toContain(text);
  }, 60_000);

  it('accepts, through a second API process, the token it issued through the first', async () => {
    const t = a as TestApp;
    // A second API instance on the same database (two processes behind one load balancer).
    const database = openDatabase(t.config.databaseUrl);
    const b = await buildApp(t.config, {
      database,
      logger: false,
      mail: { send: async () => undefined },
    });
    try {
      await b.ready();
      const token = await login(b, 'shop@tenpo.example');
      const shop = (
        await database.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'shop@tenpo.example')
          .executeTakeFirstOrThrow()
      ).id;
      const text = `二つ目の API から ${Date.now()}`;
      const res = await call(b, {
        method: 'POST',
        url: '/api/posts',
        token,
        ...multipart({ user_id: String(shop), content: text, shared_sns_type: 'twitter' }),
      });
      expect(res.statusCode, res.body).toBe(200);
      const post = json<{ data: { posts: PostView[] } }>(res).data.posts[0] as PostView;
      await b.queue.drain();
      const view = await call(b, {
        method: 'GET',
        url: `/api/posts/${post.id}?user_id=${shop}`,
        token,
      });
      const target = json<{ data: PostView[] }>(view).data[0]?.targets[0];
      expect(target?.state, JSON.stringify(target)).toBe('published');
      expect((await tweetsOf(sb.url, await xToken(sb.url))).map((x) => x.text)).toContain(text);
    } finally {
      await b.close();
      await database.close();
    }
  }, 60_000);

  it('keeps a token and a tweet it answered, when killed -9 right after the answer', async () => {
    const token = await xToken(sb.url);
    const text = `答えた直後に kill -9 ${Date.now()}`;
    const res = await fetch(`${sb.url}/x/api/2/tweets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    await restart('SIGKILL');
    const again = await fetch(`${sb.url}/x/api/2/tweets/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { text: string } }).data.text).toBe(text);
  }, 60_000);

  it('delivers mail sent over SMTP into its mailbox', async () => {
    const to = `smtp-${Date.now()}@tenpo.example`;
    await smtpTransport(`smtp://127.0.0.1:${sb.smtpPort}`).send({
      from: 'Tenpo <no-reply@tenpo.example>',
      to,
      subject: 'パスワード再設定のご案内',
      text: '以下のリンクから再設定してください。',
    });
    const res = await fetch(`${sb.url}/mail?format=json&to=${encodeURIComponent(to)}`);
    const mails = ((await res.json()) as { data: Record<string, string>[] }).data;
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to,
      subject: 'パスワード再設定のご案内',
      text: '以下のリンクから再設定してください。',
    });
    expect(mails[0]?.from).toContain('no-reply@tenpo.example');
  });

  it('refuses a second sandbox process on the same DATA_DIR', async () => {
    const { code, out } = await runToExit(dataDir, await freePort(), await freePort());
    expect(code).toBe(1);
    expect(out).toContain(`in use by process ${sb.child.pid}`);
  }, 30_000);

  it('stops on SIGTERM with exit code 0 and its lock released', async () => {
    await sb.stop('SIGTERM');
    expect(sb.child.exitCode).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'sandbox', 'sandbox.lock'))).toBe(false);
    sb = await runSandbox(dataDir, port, smtpPort);
  }, 30_000);
});

describe('Tenpo pointed at a sandbox process (SANDBOX_URL)', () => {
  it('does not mount a sandbox of its own, and sends mail over SMTP_URL', async () => {
    // Its own DATA_DIR is the sandbox's: a mounted sandbox would be refused the data folder.
    const server = await composeServer(
      loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'http://tenpo.test',
        TENPO_API_KEY: API_KEY,
        SANDBOX_URL: sb.url,
        SMTP_URL: `smtp://127.0.0.1:${sb.smtpPort}`,
        DATABASE_URL: `sqlite:${path.join(dataDir, 'compose.sqlite')}`,
      }),
    );
    try {
      expect((await server.app.inject({ url: '/sandbox/' })).statusCode).toBe(404);
      expect((await server.app.inject({ url: '/sandbox/mail?format=json' })).statusCode).toBe(404);
      const res = await call(server.app, {
        method: 'POST',
        url: '/api/forgot-password',
        payload: { email: 'shop@tenpo.example' },
      });
      expect(res.statusCode, res.body).toBe(200);
      await server.app.queue.drain();
      const mails = (
        (await (await fetch(`${sb.url}/mail?format=json&to=shop@tenpo.example`)).json()) as {
          data: { subject: string }[];
        }
      ).data;
      expect(mails.map((m) => m.subject).join()).toContain('パスワード再設定');
    } finally {
      await server.app.close();
    }
  }, 30_000);

  it('stops at start when SANDBOX_URL is set without SMTP_URL, naming it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-sandbox-url-'));
    try {
      const started = composeServer(
        loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', SANDBOX_URL: sb.url }),
      );
      await expect(started).rejects.toThrow(ConfigError);
      await expect(started).rejects.toThrow(/SMTP_URL: required when SANDBOX_URL is set/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
