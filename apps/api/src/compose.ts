import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { createMailbox, sandboxDemoGrants, sandboxPlugin, type Mailbox } from '@tenpo/sandbox';
import { buildApp } from './app';
import { DEFAULT_WEB_DIST } from './assets';
import { ConfigError, databasePoolSizeOf, type Config } from './config';
import { openDatabase } from './db/kysely';
import { migrateToLatest, MigrationsPendingError, waitForMigrations } from './db/migrate';
import { seedDemo, type DemoSeedGrants } from './db/seed';
import { smtpTransport, type MailTransport } from './mail/mailer';
import { systemClock } from './lib/clock';
import { createChannels } from './channels';
import { createSbpsClient } from './modules/payments/sbps.client';
import { fetchWithSandboxKey, registerSandboxGate, sandboxCookie } from './plugins/sandbox-gate';
import { createLlmClient } from './llm/llm.client';

/**
 * SMTP when SMTP_URL is set (a sandbox in its own process listens for it too); otherwise mail
 * lands in the mailbox of the sandbox mounted at /sandbox/mail.
 */
export const mailTransportFor = (config: Config, mailbox: Mailbox): MailTransport => {
  if (config.smtpUrl) return smtpTransport(config.smtpUrl);
  // The mailbox file below is the mounted sandbox's: with the sandbox elsewhere nobody shows it.
  if (config.sandboxUrl)
    throw new ConfigError(
      'Invalid configuration:\n  SMTP_URL: required when SANDBOX_URL is set (the sandbox process takes mail at smtp://<its host>:2525, SANDBOX_SMTP_PORT)',
    );
  return {
    async send(mail) {
      mailbox.deliver(mail);
    },
  };
};

/**
 * How long a browser keeps a file of the built web app: a content-hashed file under assets/ for
 * a year, unchanged (`immutable`); anything else (the favicon, the page) is asked again each time.
 */
export const cacheControlOf = (relative: string): string =>
  /^assets\//.test(relative.split(path.sep).join('/'))
    ? 'public, max-age=31536000, immutable'
    : 'no-cache';

/** The screens' titles by path that the web build wrote (ADR 0079); none from an older build. */
const readRouteTitles = (dist: string): Record<string, string> => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dist, 'route-titles.json'), 'utf8')) as Record<
      string,
      string
    >;
  } catch {
    return {};
  }
};

type IndexPage = { html: string; br: Buffer; gz: Buffer };

/**
 * index.html as sent for a path: its loading screen names the screen asked for (an h1 of the
 * screen's title, drawn as the screen draws it), so that the first paint says what is coming
 * (issue 23 item 5, ADR 0079). Each variant is made and compressed once, when first asked for;
 * the assets were compressed at build time and are sent as the browser accepts them (ADR 0071).
 */
export const indexPages = (
  index: string,
  titles: Record<string, string>,
  escape: (v: string) => string,
): ((pathname: string) => IndexPage) => {
  const made = new Map<string, IndexPage>();
  return (pathname) => {
    const key = Object.hasOwn(titles, pathname) ? pathname : '';
    let page = made.get(key);
    if (!page) {
      const title = key ? `<h1 class="boot-title">${escape(titles[key] ?? '')}</h1>` : '';
      const html = index.replace('<!--tenpo:boot-title-->', title);
      page = { html, br: zlib.brotliCompressSync(html), gz: zlib.gzipSync(html, { level: 9 }) };
      made.set(key, page);
    }
    return page;
  };
};

/**
 * Serves the built web app at /, with the API key, the help site (and map tiles) the server was
 * started with.
 */
async function mountWeb(app: FastifyInstance, config: Config): Promise<void> {
  const dist = config.webDist ?? DEFAULT_WEB_DIST;
  const indexFile = path.join(dist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ dist }, 'web app not built; run `npm run build`');
    return;
  }
  const attr = (v: string) =>
    v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const tags = [
    `<meta name="tenpo-api-key" content="${config.apiKey.replace(/[&"<>]/g, '')}">`,
    `<meta name="tenpo-help-url" content="${attr(config.helpUrl)}">`,
  ];
  // The store map's tile server (ADR 0042); without these tags the map draws offline outlines.
  if (config.map)
    tags.push(
      `<meta name="tenpo-map-tile-url" content="${attr(config.map.tileUrl)}">`,
      `<meta name="tenpo-map-attribution" content="${attr(config.map.attribution)}">`,
    );
  const meta = tags.join('\n');
  const index = fs.readFileSync(indexFile, 'utf8').replace('</head>', `${meta}\n</head>`);
  const pageFor = indexPages(index, readRouteTitles(dist), attr);
  await app.register(fastifyStatic, {
    root: dist,
    prefix: '/',
    index: false,
    wildcard: false,
    preCompressed: true,
    cacheControl: false,
    // Vite names every file under assets/ by its content hash: a new build makes new names.
    setHeaders: (res, file) => {
      res.header('cache-control', cacheControlOf(path.relative(dist, file)));
    },
  });
  // A staging demo's emulators need the key (ADR 0051); this page holds it already, and the
  // browser will open their pages (consent, payment) with no way to add a header.
  const cookie = config.sandboxMount === 'api-key' ? sandboxCookie(config) : null;
  const sendIndex = (req: FastifyRequest, reply: FastifyReply) => {
    if (cookie) reply.header('set-cookie', cookie);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    reply.header('vary', 'accept-encoding');
    const page = pageFor(req.url.split('?')[0] ?? '/');
    const accepts = String(req.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(page.br);
    if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(page.gz);
    return reply.send(page.html);
  };
  app.get('/', sendIndex);
  // Client-side routes: any GET outside /api, /sandbox and /uploads that is not a file.
  app.get('/*', (req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (/^\/(api|sandbox|uploads)(\/|$)/.test(url) || /\.[a-z0-9]+$/i.test(url)) {
      return reply.callNotFound();
    }
    return sendIndex(req, reply);
  });
}

/** In sandbox mode the demo stores hold the emulators' seeded grants; live providers hold none. */
export const demoSeedFor = (config: Config): DemoSeedGrants | undefined =>
  config.providers === 'sandbox'
    ? { grants: sandboxDemoGrants, secretKey: config.secretKey }
    : undefined;

/**
 * Our clients of the emulators behind the API key (ADR 0051) send it; otherwise the defaults.
 * Both processes call them: the API (connecting, paying) and the worker (publishing, billing).
 */
const sandboxClientDeps = (config: Config) => {
  if (config.sandboxMount !== 'api-key') return {};
  const fetch = fetchWithSandboxKey(config);
  return {
    channels: createChannels(config, systemClock, { fetch }),
    sbps: createSbpsClient(config.payments.sbps, systemClock, fetch),
    llm: config.llm && createLlmClient(config.llm, { fetch }),
  };
};

/** The composition root: database, migrations, demo data, API, sandbox and web in one process. */
export async function composeServer(config: Config) {
  const database = openDatabase(config.databaseUrl, { poolSize: databasePoolSizeOf(config) });
  // Under Kysely's migration lock (a PostgreSQL advisory lock): API processes started together
  // migrate one after another, the later ones finding nothing left to do (ADR 0053).
  await migrateToLatest(database);
  // Idempotent, and serialised across processes on PostgreSQL (seed.ts).
  if (config.seedDemo) await seedDemo(database.db, systemClock, demoSeedFor(config));

  const sandboxDir = path.join(config.dataDir, 'sandbox');
  const mailbox = createMailbox(sandboxDir);
  const app = await buildApp(config, {
    database,
    mail: mailTransportFor(config, mailbox),
    ...sandboxClientDeps(config),
    mount: async (root) => {
      if (config.sandboxMount !== 'none') {
        await root.register(
          async (scope) => {
            if (config.sandboxMount === 'api-key') registerSandboxGate(scope, config);
            // The emulators' own pages are theirs: no CSP of ours on them.
            scope.addHook('onSend', async (_req, reply) => {
              reply.removeHeader('content-security-policy');
            });
            await scope.register(sandboxPlugin, {
              dataDir: config.dataDir,
              baseUrl: `${config.publicUrl}/sandbox`,
              mailbox,
            });
          },
          { prefix: '/sandbox' },
        );
      }
      await mountWeb(root, config);
    },
  });
  app.addHook('onClose', async () => {
    await database.close();
  });
  return { app, database, mailbox };
}

/**
 * A worker process (`npm run worker`): the job queue and the services its jobs need, nothing
 * served. Only the API process (or `npm run migrate`) migrates: a worker started on a database
 * that still lacks migrations waits for them, up to MIGRATION_WAIT_SECONDS, instead of changing
 * the schema under running API processes (ADR 0053).
 */
export async function composeWorker(config: Config) {
  const database = openDatabase(config.databaseUrl, {
    poolSize: databasePoolSizeOf(config, true),
  });
  try {
    await waitForMigrations(database, {
      maxWaitMs: config.migrationWaitMs,
      log: (message) => console.warn(message),
    });
  } catch (err) {
    await database.close();
    throw err instanceof MigrationsPendingError ? new WorkerNotReadyError(err.message) : err;
  }
  const mailbox = createMailbox(path.join(config.dataDir, 'sandbox'));
  const app = await buildApp(config, {
    database,
    mail: mailTransportFor(config, mailbox),
    ...sandboxClientDeps(config),
  });
  app.addHook('onClose', async () => {
    await database.close();
  });
  return { app, database };
}

export class WorkerNotReadyError extends Error {}

/** `npm run migrate`: the migrations this run applied (none when the database was up to date). */
export async function runMigrations(config: Config): Promise<string[]> {
  const database = openDatabase(config.databaseUrl);
  try {
    return await migrateToLatest(database);
  } finally {
    await database.close();
  }
}
