#!/usr/bin/env node
// `npm run build` (server half): bundles apps/api/src/server.ts, worker.ts, migrate.ts and the data
// tools with esbuild into apps/api/dist/{server,worker,migrate,data}.mjs (and the sandbox on its own,
// apps/sandbox/src/main.ts, into apps/api/dist/sandbox.mjs for `npm run sandbox`), so that `npm start` runs plain JavaScript (no TypeScript
// transpiler at start, and none installed: `npm ci --omit=dev` leaves esbuild and tsx out).
// Our workspace packages (@tenpo/domain, @tenpo/sandbox export TypeScript source) go into the
// bundle; every other package stays an import resolved from node_modules at run time, so native
// addons (better-sqlite3, argon2) and packages that read their own files (swagger-ui) keep working.
// No code splitting: each bundle is one file directly in apps/api/dist, one folder below apps/api
// as src/assets.ts is, so the paths resolved there hold in both (see that file).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const api = path.join(root, 'apps/api');
// `--outdir DIR` builds elsewhere (the tests start a bundle of their own).
const at = process.argv.indexOf('--outdir');
const outdir = at > 0 ? path.resolve(process.argv[at + 1]) : path.join(api, 'dist');

/** Bare imports stay external, except our own workspace packages. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@tenpo/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: {
    server: path.join(api, 'src/server.ts'),
    worker: path.join(api, 'src/worker.ts'),
    migrate: path.join(api, 'src/migrate.ts'),
    // `npm run backup`, `restore` and `migrate-to-postgres` (scripts/data.mjs, ADR 0056).
    data: path.join(api, 'src/db/tools/data-main.ts'),
    sandbox: path.join(root, 'apps/sandbox/src/main.ts'),
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22.12',
  sourcemap: 'linked',
  // Stack traces point at the TypeScript sources.
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  tsconfig: path.join(api, 'tsconfig.json'),
  plugins: [externalDependencies],
});
console.log(
  `Built ${path.relative(root, outdir) || '.'}/server.mjs, worker.mjs, migrate.mjs, data.mjs and sandbox.mjs`,
);
