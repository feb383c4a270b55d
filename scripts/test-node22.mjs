#!/usr/bin/env node
// `npm run test:node22`: the unit suites that show whether Tenpo still runs on Node.js 22, the
// older LTS line `engines` allows (ADR 0013), through scripts/with-node22.mjs. What differs
// between 22 and 24 is the runtime, not Tenpo's logic, so this runs (ADR 0076):
// - the domain and sandbox packages whole (small, and the sandbox is what `npm start` serves);
// - the API files that lean on the runtime: the native SQLite driver and migrations, crypto
//   (passwords, tokens, signed URLs, SBPS's 3DES and hashes), streams and fetch (uploads, media,
//   providers), child processes started with this Node (production start, backup), timers and
//   the job engine, and tenancy.test, which calls every route once.
// The whole API suite runs on Node.js 24 twice already (SQLite in test:unit, PostgreSQL in
// test:pg); a third full pass cost about 9 minutes of CI for no code path of its own.
import { spawnSync } from 'node:child_process';

const files = [
  'packages/domain/',
  'apps/sandbox/',
  'apps/api/src/media/inspect.test.ts',
  'apps/api/test/auth.test.ts',
  'apps/api/test/tenancy.test.ts',
  'apps/api/test/posts.test.ts',
  'apps/api/test/payments.test.ts',
  'apps/api/test/storage.test.ts',
  'apps/api/test/storage-uploads.test.ts',
  'apps/api/test/backup.test.ts',
  'apps/api/test/production-start.test.ts',
  'apps/api/test/jobs.test.ts',
  'apps/api/test/reports.test.ts',
];
const r = spawnSync(
  'node',
  [
    'scripts/with-node22.mjs',
    'node',
    'node_modules/vitest/vitest.mjs',
    'run',
    ...['domain', 'sandbox', 'api'].flatMap((p) => ['--project', p]),
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
