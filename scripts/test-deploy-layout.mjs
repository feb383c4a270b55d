#!/usr/bin/env node
// `npm run test:deploy`: proves the container image's layout without a container (ADR 0057).
// The repository's files are copied to a temporary folder (as the Dockerfile's build context),
// the prebuilt web app and server bundles are copied in (as the image copies them from its build
// stage), the production dependencies are installed there exactly as the image installs them
// (`npm ci --omit=dev --workspace @tenpo/api --include-workspace-root`), and the processes are
// started from that copy: an API process and a worker, each checked through its health endpoint.
// No dev dependency is there (no esbuild, Vite, tsx), so anything that still needs one fails here.
//
// It installs from npm's cache only (`--offline`): after the `npm ci` of CI it asks no registry.
// About 30 s on 2 cores, most of it the install. `--keep` leaves the copy in place.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const step = (what) => console.log(`[${elapsed()}] ${what}`);

/** The same command as the Dockerfile's `deps` stage, from the cache. */
const INSTALL = [
  'ci',
  '--omit=dev',
  '--workspace',
  '@tenpo/api',
  '--include-workspace-root',
  '--offline',
  '--no-audit',
  '--no-fund',
];
/** What the build stage makes and the image copies over the sources (Dockerfile, `/out`). */
const BUILT = ['apps/api/dist/server.mjs', 'apps/api/dist/worker.mjs', 'apps/web/dist/index.html'];
/**
 * Dev dependencies that must not be in a production install: the builders `npm start` would use.
 * (TypeScript is: npm keeps it as the optional peer of i18next, "devOptional" in the lock.)
 */
const DEV_ONLY = ['esbuild', 'vite', 'tsx', 'vitest', 'eslint'];
// The probes an orchestrator uses (ADR 0052).
const API_PROBES = ['/api/health/live', '/api/health/ready'];

const fail = (msg) => {
  throw new Error(msg);
};

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const children = [];
/** Starts `npm <args>` in the copy, in its own process group (npm does not pass SIGTERM on). */
const start = (name, args, env, dir) => {
  const child = spawn('npm', args, {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const out = { name, child, log: '', exited: null };
  child.stdout.on('data', (b) => (out.log += b));
  child.stderr.on('data', (b) => (out.log += b));
  child.on('exit', (code, signal) => (out.exited = { code, signal }));
  children.push(out);
  return out;
};

const stopAll = async () => {
  for (const c of children) {
    if (c.exited) continue;
    try {
      process.kill(-c.child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  const deadline = Date.now() + 10_000;
  while (children.some((c) => !c.exited) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  for (const c of children) {
    if (c.exited) continue;
    try {
      process.kill(-c.child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
};

/** Waits until `url` answers 200, failing early if the process exits. */
const waitFor200 = async (proc, url, timeoutMs = 60_000) => {
  const until = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < until) {
    if (proc.exited)
      fail(`${proc.name} exited (${JSON.stringify(proc.exited)}) before ${url}:\n${proc.log}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return res;
      last = `${res.status} ${(await res.text()).slice(0, 300)}`;
    } catch (err) {
      last = String(err.cause?.code ?? err.message);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  fail(
    `${proc.name}: ${url} did not answer 200 within ${timeoutMs} ms (last: ${last}):\n${proc.log}`,
  );
};

const waitForLog = async (proc, pattern, timeoutMs = 60_000) => {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (pattern.test(proc.log)) return;
    if (proc.exited) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  fail(`${proc.name} did not log ${pattern} (exit: ${JSON.stringify(proc.exited)}):\n${proc.log}`);
};

const copyRepository = (dir) => {
  // What `git` knows (tracked, and new files not ignored), as the build context holds it.
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) fail(`git ls-files failed: ${r.stderr}`);
  let n = 0;
  for (const f of r.stdout.split('\0')) {
    if (!f) continue;
    const from = path.join(root, f);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, f));
    n += 1;
  }
  return n;
};

async function main() {
  for (const f of BUILT)
    if (!fs.existsSync(path.join(root, f)))
      fail(`${f} is missing: run \`npm run build\` first (this test copies the built output).`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-deploy-layout-'));
  const dataDir = path.join(dir, '.data');
  try {
    step(`copying the repository to ${dir}`);
    const files = copyRepository(dir);
    for (const d of ['apps/api/dist', 'apps/web/dist'])
      fs.cpSync(path.join(root, d), path.join(dir, d), { recursive: true });
    step(`${files} files and the built output copied; npm ${INSTALL.join(' ')}`);

    const install = spawnSync('npm', INSTALL, { cwd: dir, encoding: 'utf8' });
    if (install.status !== 0)
      fail(
        `npm ci --omit=dev failed (${install.status}):\n${install.stdout}\n${install.stderr}` +
          (/ENOTCACHED/.test(install.stderr)
            ? "\nA package is not in npm's cache: run `npm ci` here first (this test installs offline)."
            : ''),
      );
    step('installed');

    const present = DEV_ONLY.filter((p) => fs.existsSync(path.join(dir, 'node_modules', p)));
    if (present.length > 0) fail(`dev dependencies in the production install: ${present}`);
    const pinned = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
      .optionalDependencies[`node-linux-${process.arch}`];
    const node = path.join(dir, 'node_modules/.bin/node');
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (version !== `v${pinned}`)
      fail(`node_modules/.bin/node is ${version ?? 'missing'}, the lock pins v${pinned}`);
    // The native addons load from the pruned tree (sharp's libvips, better-sqlite3, argon2).
    const addons = spawnSync(
      node,
      [
        '--input-type=module',
        '-e',
        "await import('sharp'); await import('better-sqlite3'); await import('@node-rs/argon2');",
      ],
      { cwd: path.join(dir, 'apps/api'), encoding: 'utf8' },
    );
    if (addons.status !== 0) fail(`native addons do not load:\n${addons.stderr}`);
    step(`Node.js ${version} from node_modules, no dev dependency, native addons load`);

    const base = { DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'test' };

    // `npm run migrate` first, as compose runs it; then the sandbox as its own process, which
    // the API and the worker reach through SANDBOX_URL and SMTP_URL.
    const migrate = spawnSync('npm', ['run', 'migrate'], {
      cwd: dir,
      env: { ...process.env, ...base },
      encoding: 'utf8',
    });
    if (migrate.status !== 0) fail(`npm run migrate failed:\n${migrate.stdout}${migrate.stderr}`);
    step('npm run migrate: done');
    const sandboxPort = await freePort();
    const smtpPort = await freePort();
    const sandbox = start(
      'sandbox',
      ['run', 'sandbox'],
      {
        ...base,
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_SMTP_PORT: String(smtpPort),
        SANDBOX_PUBLIC_URL: `http://127.0.0.1:${sandboxPort}`,
      },
      dir,
    );
    await waitFor200(sandbox, `http://127.0.0.1:${sandboxPort}/mail?format=json`);
    base.SANDBOX_URL = `http://127.0.0.1:${sandboxPort}`;
    base.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    step('sandbox up');

    const apiPort = await freePort();
    const api = start(
      'api',
      ['start'],
      { ...base, PORT: String(apiPort), TENPO_WORKER: 'false' },
      dir,
    );
    for (const probe of API_PROBES) await waitFor200(api, `http://127.0.0.1:${apiPort}${probe}`);
    const web = await fetch(`http://127.0.0.1:${apiPort}/`);
    if (web.status !== 200 || !/<div id="root">/.test(await web.text()))
      fail(`GET / does not serve the built web app (${web.status})`);
    const login = await fetch(`http://127.0.0.1:${apiPort}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'tenpo-dev-key' },
      body: JSON.stringify({ email: 'shop@tenpo.example', password: 'tenpo-demo-1' }),
    });
    if (login.status !== 200) fail(`demo login: ${login.status} ${await login.text()}`);
    step('API up: health 200, web app served, demo login 200');

    const workerPort = await freePort();
    const worker = start(
      'worker',
      ['run', 'worker'],
      { ...base, WORKER_HEALTH_PORT: String(workerPort) },
      dir,
    );
    await waitForLog(worker, /Tenpo worker is up/);
    for (const p of ['/api/health/live', '/api/health/ready'])
      await waitFor200(worker, `http://127.0.0.1:${workerPort}${p}`);

    // Up, and still up a moment later (a worker that exits at once on a missing migration or a
    // missing module may log its start first).
    await new Promise((r) => setTimeout(r, 2000));
    if (worker.exited) fail(`worker exited: ${JSON.stringify(worker.exited)}\n${worker.log}`);
    step('worker up');

    await stopAll();
    console.log(`deploy layout: OK in ${elapsed()}`);
  } finally {
    await stopAll();
    if (keep) console.log(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`deploy layout: FAILED after ${elapsed()}\n${err.message}`);
  process.exitCode = 1;
});
