// The sandbox on a port of its own, in a process of its own (as the providers are remote), for
// bench/delivery.ts: mounted under /sandbox as the product mounts it, with one addition of the
// bench's — every provider call's arrival time and answer, listed at GET /bench/calls, so the
// bench reads when a call reached the provider from the provider's side.
// Env: PORT, DATA_DIR. Prints "sandbox ready" once it listens.
import Fastify from 'fastify';
import { createMailbox, sandboxPlugin } from '@tenpo/sandbox';

const port = Number(process.env.PORT);
const dataDir = process.env.DATA_DIR as string;
const url = `http://127.0.0.1:${port}/sandbox`;
type Call = { at: number; ms: number; method: string; path: string; status: number };
const calls: Call[] = [];
const arrived = new WeakMap<object, number>();

const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });
app.addHook('onRequest', async (req) => {
  arrived.set(req, Date.now());
});
app.addHook('onResponse', async (req, reply) => {
  if (!req.url.startsWith('/sandbox/') || req.url.startsWith('/sandbox/control')) return;
  const at = arrived.get(req) ?? Date.now();
  calls.push({
    at,
    ms: Date.now() - at,
    method: req.method,
    path: req.url.split('?')[0] ?? req.url,
    status: reply.statusCode,
  });
});
app.get('/bench/calls', async (req) => {
  const since = Number((req.query as { since?: string }).since ?? 0);
  return { data: calls.filter((c) => c.at >= since) };
});
app.delete('/bench/calls', async () => {
  calls.length = 0;
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
