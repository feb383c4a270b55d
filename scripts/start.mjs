#!/usr/bin/env node
// `npm start`: builds what is missing or older than its sources (the web app with Vite, the
// server bundle with esbuild), then runs the compiled server, apps/api/dist/server.mjs
// (migrations, demo data on first start, API at /api, sandbox at /sandbox, web at /).
// `--dev` runs the server from its TypeScript sources with tsx instead and builds nothing.
// `--worker` runs the job worker alone (apps/api/dist/worker.mjs); `--migrate` migrates the
// database and exits (apps/api/dist/migrate.mjs).
// `--sandbox` runs the emulators alone (apps/api/dist/sandbox.mjs, `npm run sandbox`): the one
// writer of their state, reached by Tenpo's processes through SANDBOX_URL and SMTP_URL.
// Where the build tools are not installed (`npm ci --omit=dev`), existing builds are used as
// they are. SIGTERM and SIGINT are passed on for a clean stop.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dev = process.argv.includes('--dev');
const worker = process.argv.includes('--worker');
const migrate = process.argv.includes('--migrate');
const sandbox = process.argv.includes('--sandbox');
// The entry, without extension. Only the server serves the web app.
const entryName = migrate ? 'migrate' : sandbox ? 'sandbox' : worker ? 'worker' : 'server';
const require = createRequire(import.meta.url);

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `Tenpo needs Node.js 22.12 or newer; this is ${process.version}. Run it through npm ` +
      '(`npm start`), which uses the Node.js that `npm install` put in node_modules/.bin.',
  );
  process.exit(1);
}

const newest = (p) => {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of fs.readdirSync(p))
    if (e !== 'node_modules' && e !== 'dist') m = Math.max(m, newest(path.join(p, e)));
  return m;
};
const mtime = (f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0);
const installed = (pkg) => {
  try {
    require.resolve(`${pkg}/package.json`, { paths: [root, path.join(root, 'apps/web')] });
    return true;
  } catch {
    return false;
  }
};
const run = (label, cmd, args) => {
  console.log(label);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

/** Builds `target` from `sources` when it is missing or older, if the builder is installed. */
const ensureBuilt = ({ target, sources, builder, label, cmd, args }) => {
  const built = mtime(target);
  if (built >= Math.max(...sources.map((s) => newest(path.join(root, s))))) return;
  if (installed(builder)) return run(label, cmd, args);
  if (built > 0) return; // a deployment without dev dependencies runs what it was given
  console.error(
    `${path.relative(root, target)} is missing and ${builder} is not installed: run \`npm run build\` where the dev dependencies are installed.`,
  );
  process.exit(1);
};

const serverBundle = path.join(root, 'apps/api/dist', `${entryName}.mjs`);
if (!dev) {
  if (entryName === 'server') {
    ensureBuilt({
      target: path.join(root, 'apps/web/dist/index.html'),
      sources: [
        'apps/web/src',
        'apps/web/public',
        'apps/web/index.html',
        'apps/web/vite.config.ts',
        'packages/domain/src',
      ],
      builder: 'vite',
      label: 'Building the web app…',
      cmd: 'npm',
      args: ['run', 'build', '-w', '@tenpo/web'],
    });
  }
  ensureBuilt({
    target: serverBundle,
    sources: ['apps/api/src', 'apps/sandbox/src', 'packages/domain/src'],
    builder: 'esbuild',
    label: 'Building the server…',
    cmd: process.execPath,
    args: [path.join(root, 'scripts/build-server.mjs')],
  });
}

const devEntry = sandbox
  ? path.join(root, 'apps/sandbox/src/main.ts')
  : path.join(root, 'apps/api/src', `${entryName}.ts`);
// Source maps cost an idle process about 40 MB (bench/memory.mjs, ADR 0057): only when asked for,
// with TENPO_SOURCE_MAPS=true, so that a stack trace names the TypeScript line.
const sourceMaps = /^(true|1|yes)$/i.test(process.env.TENPO_SOURCE_MAPS ?? '');
const entry = dev
  ? ['--import', 'tsx', devEntry]
  : [...(sourceMaps ? ['--enable-source-maps'] : []), serverBundle];
const child = spawn(process.execPath, entry, { cwd: root, stdio: 'inherit', env: process.env });
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
