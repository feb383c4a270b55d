#!/usr/bin/env node
// `npm run backup`, `npm run restore`, `npm run migrate-to-postgres` (ADR 0056): runs the
// compiled data commands, apps/api/dist/data.mjs, building the server bundles first when they
// are missing or older than their sources and esbuild is installed. A deployment installed with
// `npm ci --omit=dev` has no esbuild and runs the bundle it was given, as `npm start` does.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const bundle = path.join(root, 'apps/api/dist/data.mjs');

const newest = (p) => {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of fs.readdirSync(p))
    if (e !== 'node_modules' && e !== 'dist') m = Math.max(m, newest(path.join(p, e)));
  return m;
};
const built = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : 0;
const sources = ['apps/api/src', 'apps/sandbox/src', 'packages/domain/src'].map((s) =>
  newest(path.join(root, s)),
);
let esbuild = true;
try {
  require.resolve('esbuild/package.json', { paths: [root] });
} catch {
  esbuild = false;
}
if (built < Math.max(...sources)) {
  if (esbuild) {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  } else if (built === 0) {
    console.error(
      'apps/api/dist/data.mjs is missing and esbuild is not installed: run `npm run build` where the dev dependencies are installed.',
    );
    process.exit(1);
  }
}

const child = spawn(process.execPath, [bundle, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
