import Fastify from 'fastify';
import path from 'node:path';
import { createMailbox, sandboxPlugin } from './index';

// Runs the sandbox on its own, e.g. `SANDBOX_PORT=4010 npm start -w @tenpo/sandbox`.
const port = Number(process.env.SANDBOX_PORT ?? 4010);
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
const baseUrl = process.env.SANDBOX_URL ?? `http://localhost:${port}`;

const app = Fastify({ logger: true });
await app.register(sandboxPlugin, {
  dataDir,
  baseUrl,
  mailbox: createMailbox(path.join(dataDir, 'sandbox')),
});
await app.listen({ port, host: '127.0.0.1' });
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void app.close());
