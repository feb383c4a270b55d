// The server bench/uploads.ts measures, in a process of its own so that its RSS is its own: the
// Tenpo API on a fresh migrated SQLite database with the demo data (`tenpo`), or the reference,
// a bare Fastify server with @fastify/multipart that streams each file to a file on disk and
// answers 200 (`sink`). Prints one JSON line with its port when it listens.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';
import multipart from '@fastify/multipart';
import { buildApp } from '../../apps/api/src/app';
import { loadConfig } from '../../apps/api/src/config';
import { openDatabase } from '../../apps/api/src/db/kysely';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { seedDemo } from '../../apps/api/src/db/seed';
import { systemClock } from '../../apps/api/src/lib/clock';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-uploads-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
process.on('SIGTERM', () => process.exit(0));

if (process.argv[2] === 'sink') {
  const app = Fastify({ logger: false });
  await app.register(multipart, { limits: { fileSize: 20 * 1024 * 1024 + 1, files: 10 } });
  app.post('/sink', async (req) => {
    for await (const part of req.parts())
      if (part.type === 'file')
        await pipeline(part.file, fs.createWriteStream(path.join(dir, randomUUID())));
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port }));
} else {
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    TENPO_WORKER: 'false',
    RATE_LIMIT_AUTH_PER_MINUTE: '10000',
    ...(process.env.UPLOAD_INFLIGHT_USER_MB
      ? { UPLOAD_INFLIGHT_USER_MB: process.env.UPLOAD_INFLIGHT_USER_MB }
      : {}),
    ...(process.env.UPLOAD_INFLIGHT_PROCESS_MB
      ? { UPLOAD_INFLIGHT_PROCESS_MB: process.env.UPLOAD_INFLIGHT_PROCESS_MB }
      : {}),
  });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedDemo(database.db, systemClock);
  const app = await buildApp(config, { database, logger: false, mail: { send: async () => {} } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(
    JSON.stringify({
      port: (app.server.address() as { port: number }).port,
      apiKey: config.apiKey,
    }),
  );
}
