import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { PublisherKey } from '@tenpo/domain';
import { createMailbox, listenSmtp, sandboxPlugin } from '@tenpo/sandbox';
import { call, json } from './helpers';

/** The emulators on a free port of this machine, as the product mounts them (under /sandbox). */
export type RunningSandbox = {
  url: string;
  /** Its mailbox's SMTP door, as Tenpo's SMTP_URL takes it (a process given SANDBOX_URL needs one). */
  smtpUrl: string;
  app: FastifyInstance;
  /** A JSON call to the sandbox's control and fault endpoints. */
  control: (method: 'POST' | 'PATCH' | 'DELETE', p: string, body?: object) => Promise<unknown>;
  close: () => Promise<void>;
};

/** A Google access token of the demo shop's grant, from the sandbox with its demo refresh token. */
export async function shopGoogleToken(sandboxUrl: string): Promise<string> {
  const res = await fetch(`${sandboxUrl}/google/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: '1//0eSandboxDemoGrant-shop-tenpo-example-business-manage',
      client_id: 'tenpo-sandbox',
      client_secret: 'tenpo-sandbox-secret',
    }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A port free right now (the sandbox must know its own URL before it starts). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      srv.close(() => resolve(port));
    });
  });

export async function startSandbox(): Promise<RunningSandbox> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-channels-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/sandbox`;
  const app = Fastify({ logger: false });
  const mailbox = createMailbox(null);
  await app.register(
    async (scope) => {
      await scope.register(sandboxPlugin, { dataDir, baseUrl: url, mailbox });
    },
    { prefix: '/sandbox' },
  );
  await app.listen({ port, host: '127.0.0.1' });
  const smtp = await listenSmtp(mailbox, 0, '127.0.0.1');
  return {
    url,
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    app,
    async control(method, p, body) {
      const res = await fetch(`${url}${p}`, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    close: async () => {
      await smtp.close();
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Plays the user on a provider's consent page: opens it (it must render), then submits the
 * form as the page's buttons do, and returns where the provider sends the browser.
 */
export async function consent(
  urlAuth: string,
  choice: Record<string, string | string[]>,
): Promise<URL> {
  const page = await fetch(urlAuth);
  if (page.status !== 200) throw new Error(`consent page ${page.status}: ${await page.text()}`);
  await page.text();
  const u = new URL(urlAuth);
  const body = new URLSearchParams(u.searchParams);
  for (const [k, v] of Object.entries(choice))
    for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  const res = await fetch(`${u.origin}${u.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location)
    throw new Error(`consent answered ${res.status}: ${await res.text()}`);
  return new URL(location);
}

/** The sandbox's demo X account, which the demo data leaves for the shop to connect. */
export const X_USER = '1701234567890123456';

/**
 * Connects `key` for the store as the browser does: the API's connect URL, the provider's
 * consent page, and the callback, which must redirect.
 */
export async function connectThroughConsent(
  app: FastifyInstance,
  token: string,
  storeId: number,
  key: PublisherKey,
  choice: Record<string, string | string[]>,
): Promise<void> {
  const res = await call(app, {
    method: 'GET',
    url: `/api/publisher/connect?publisher_key=${key}&user_id=${storeId}`,
    token,
  });
  const urlAuth = json<{ data: { urlAuth: string } }>(res).data.urlAuth;
  const back = await consent(urlAuth, choice);
  const ret = await app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  if (ret.statusCode !== 302) throw new Error(`callback answered ${ret.statusCode}: ${ret.body}`);
}
