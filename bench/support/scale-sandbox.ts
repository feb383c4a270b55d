// The sandbox for bench/scale.ts: bench/support/sandbox-server.ts's process (the emulators
// under /sandbox on a port of their own, every provider call's arrival listed at
// GET /bench/calls), plus GET /bench/count?since=<ms>, how many publish calls it accepted since
// then, which the bench polls while the burst runs (cheaper than listing every call).
// Env: PORT, DATA_DIR. Prints "sandbox ready" once it listens.
import Fastify from 'fastify';
import { createMailbox, sandboxPlugin } from '@tenpo/sandbox';

const port = Number(process.env.PORT);
const dataDir = process.env.DATA_DIR as string;
const url = `http://127.0.0.1:${port}/sandbox`;
type Call = { at: number; ms: number; method: string; path: string; status: number };
const calls: Call[] = [];
const arrived = new WeakMap<object, number>();
/** The call that makes the post at each provider (bench/delivery.ts's CREATE). */
const CREATE = /\/(localPosts|feed|photos|videos|media_publish)$|\/2\/tweets$/;
/** Arrival times of the accepted publish calls, in order. */
const creates: number[] = [];

const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
app.addHook('onRequest', async (req) => {
  arrived.set(req, Date.now());
});
app.addHook('onResponse', async (req, reply) => {
  if (!req.url.startsWith('/sandbox/') || req.url.startsWith('/sandbox/control')) return;
  const at = arrived.get(req) ?? Date.now();
  const p = req.url.split('?')[0] ?? req.url;
  calls.push({ at, ms: Date.now() - at, method: req.method, path: p, status: reply.statusCode });
  if (req.method === 'POST' && reply.statusCode < 300 && CREATE.test(p)) creates.push(at);
});
app.get('/bench/calls', async (req) => {
  const since = Number((req.query as { since?: string }).since ?? 0);
  return { data: calls.filter((c) => c.at >= since) };
});
app.get('/bench/count', async (req) => {
  const since = Number((req.query as { since?: string }).since ?? 0);
  let n = 0;
  for (let i = creates.length - 1; i >= 0 && (creates[i] as number) >= since; i--) n++;
  return { data: n };
});
app.delete('/bench/calls', async () => {
  calls.length = 0;
  creates.length = 0;
  return { data: true };
});
await app.register(
  async (scope) => {
    await scope.register(sandboxPlugin, { dataDir, baseUrl: url, mailbox: createMailbox(null) });
  },
  { prefix: '/sandbox' },
);
await app.listen({ port, host: '127.0.0.1' });
console.log('sandbox ready');
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    void app.close().then(() => process.exit(0));
  });
