#!/usr/bin/env node
// `npm start`: builds the web app when its sources are newer than the build, then runs the
// server (migrations, demo data on first start, API at /api, sandbox at /sandbox, web at /).
// `--dev` skips the build check. SIGTERM and SIGINT are passed on for a clean stop.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');

const newest = (p) => {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of fs.readdirSync(p))
    if (e !== 'node_modules' && e !== 'dist') m = Math.max(m, newest(path.join(p, e)));
  return m;
};

const webIndex = path.join(root, 'apps/web/dist/index.html');
if (!dev) {
  const sources = Math.max(
    newest(path.join(root, 'apps/web/src')),
    newest(path.join(root, 'apps/web/public')),
    newest(path.join(root, 'apps/web/index.html')),
    newest(path.join(root, 'apps/web/vite.config.ts')),
    newest(path.join(root, 'packages/domain/src')),
  );
  const built = fs.existsSync(webIndex) ? fs.statSync(webIndex).mtimeMs : 0;
  if (built < sources && fs.existsSync(path.join(root, 'apps/web/index.html'))) {
    console.log('Building the web app…');
    const r = spawnSync('npm', ['run', 'build', '-w', '@tenpo/web'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/api/src/server.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  },
);
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
