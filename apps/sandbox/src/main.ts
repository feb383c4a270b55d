import path from 'node:path';
import Fastify from 'fastify';
import { createMailbox, sandboxPlugin } from './index';
import { listenSmtp } from './mail/smtp';

// The sandbox as a process of its own (`npm run sandbox`): the one writer of its state, which
// every Tenpo API and worker process reaches through SANDBOX_URL (and SMTP_URL for mail).
// The environment is read here only: this file is the sandbox's config module.

const env = process.env;
const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};
const portOf = (name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    return fail(`${name} must be a port number (0-65535, 0 = any free port), not "${raw}".`);
  return n;
};
const urlOf = (name: string): string | undefined => {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
  } catch {
    return fail(`${name} must be an http(s) URL, e.g. http://localhost:4010, not "${raw}".`);
  }
  return raw.replace(/\/+$/, '');
};

const port = portOf('SANDBOX_PORT', 4010);
const smtpPort = portOf('SANDBOX_SMTP_PORT', 2525);
const host = env.SANDBOX_HOST || '127.0.0.1';
const dataDir = path.resolve(env.DATA_DIR || './data');
// Where browsers and Tenpo reach it: its consent pages and SBPS's payment page link to it.
const publicUrl = urlOf('SANDBOX_PUBLIC_URL');
if (!publicUrl && port === 0)
  fail('SANDBOX_PORT=0 needs SANDBOX_PUBLIC_URL: the sandbox must know its URL.');
const baseUrl = publicUrl ?? `http://localhost:${port}`;

const app = Fastify({ logger: { level: env.LOG_LEVEL || 'info' }, bodyLimit: 32 * 1024 * 1024 });
const mailbox = createMailbox(path.join(dataDir, 'sandbox'));
try {
  // Served under the public URL's path (http://host:4010/sandbox → /sandbox), so a proxy in
  // front passes paths through unchanged; at / by default.
  const prefix = new URL(baseUrl).pathname.replace(/\/+$/, '');
  await app.register(sandboxPlugin, { dataDir, baseUrl, mailbox, ...(prefix ? { prefix } : {}) });
  await app.listen({ port, host });
} catch (err) {
  fail(`The sandbox could not start: ${err instanceof Error ? err.message : String(err)}`);
}
const smtp = await listenSmtp(mailbox, smtpPort, host).catch((err: unknown) =>
  fail(
    `The sandbox's SMTP server could not listen on ${host}:${smtpPort} (SANDBOX_SMTP_PORT): ${err instanceof Error ? err.message : String(err)}`,
  ),
);
const httpPort = (app.server.address() as { port: number }).port;
// One line a supervisor (or a test) can read: where each door is.
console.log(`sandbox ready http=${httpPort} smtp=${smtp.port} data=${dataDir}`);

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    if (stopping) return;
    stopping = true;
    // Closing the app writes every state file and releases the data folder's lock.
    void Promise.all([smtp.close(), app.close()]).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('sandbox: stop failed', err);
        process.exit(1);
      },
    );
  });
