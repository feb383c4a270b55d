#!/usr/bin/env node
// Idle memory of Tenpo's processes (issue 20 item 9: ≤ 110 MB RSS for an API process and for a
// worker), against references measured in the same run on the same Node.js: an idle `node`, and a
// bare Fastify server answering one route. Each process is started from the compiled bundles as
// the container image runs them (`node apps/api/dist/server.mjs`, no source maps), left idle,
// then (--expose-gc and bench/support/memory-probe.mjs) collected twice before it is measured:
// RSS, and how it splits into anonymous memory (the heap, the code V8 compiled, native buffers)
// and file pages (the node binary and the addons, shared by every process of the machine).
//
// `--modules` also measures what each package the server imports adds to an idle node on its own.
// Run `npm run build` first. ADR 0057 reads these figures.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './support/free-port.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/api/dist');
const probe = path.join(root, 'bench/support/memory-probe.mjs');
if (!fs.existsSync(path.join(dist, 'server.mjs'))) {
  console.error('apps/api/dist/server.mjs is missing: run `npm run build` first.');
  process.exit(1);
}
const GOAL_MB = 110;
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 3000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-memory-'));
// Removed however the run ends (a process that never got ready throws).
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const statusKb = (pid) => {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
};

/**
 * Starts `args` under node with the probe, waits for `ready`, lets it idle, then measures it.
 * `ready` is a URL answering 200, or a RegExp the output must match.
 */
async function measure(name, args, { env = {}, ready, flags = [] } = {}) {
  const out = path.join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  const child = spawn(process.execPath, [...flags, '--expose-gc', '--import', probe, ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, BENCH_MEMORY_OUT: out },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (b) => (log += b));
  child.stderr.on('data', (b) => (log += b));
  let exited = false;
  const gone = new Promise((r) => child.on('exit', () => r((exited = true))));
  const until = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`${name} exited before it was ready:\n${log}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready within 60 s:\n${log}`);
    }
    const ok =
      ready instanceof RegExp
        ? ready.test(log)
        : await fetch(ready)
            .then((r) => r.status === 200)
            .catch(() => false);
    if (ok) break;
    await sleep(50);
  }
  await sleep(SETTLE_MS);
  child.kill('SIGUSR2');
  for (let i = 0; i < 100 && !fs.existsSync(out); i += 1) await sleep(20);
  await sleep(200);
  const kb = statusKb(child.pid);
  const inside = JSON.parse(fs.readFileSync(out, 'utf8'));
  child.kill('SIGTERM');
  await gone;
  return { name, ...kb, inside };
}

const mb = (kb) => (kb / 1024).toFixed(1).padStart(6);
const bytesMb = (b) => (b / 1048576).toFixed(1).padStart(6);

// A migrated data folder without demo data: the processes measured have nothing to do.
const dataDir = path.join(tmp, 'data');
const tenpoEnv = (port) => ({
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: String(port),
  TENPO_SEED_DEMO: 'false',
});
{
  const port = await freePort();
  await measure('migrate', [path.join(dist, 'server.mjs')], {
    env: tenpoEnv(port),
    ready: `http://127.0.0.1:${port}/api/health`,
  });
}

const runs = [];
runs.push(
  await measure('reference: idle node', ['-e', 'setInterval(() => {}, 1 << 30)'], {
    ready: /^/,
  }),
);
{
  const port = await freePort();
  const hello = [
    '--input-type=module',
    '-e',
    `const { default: Fastify } = await import('fastify');
     const app = Fastify({ logger: false });
     app.get('/', async () => ({ hello: 'world' }));
     await app.listen({ port: ${port}, host: '127.0.0.1' });`,
  ];
  runs.push(
    await measure('reference: Fastify hello', hello, { ready: `http://127.0.0.1:${port}/` }),
  );
}
{
  const port = await freePort();
  runs.push(
    await measure('Tenpo API (TENPO_WORKER=false)', [path.join(dist, 'server.mjs')], {
      env: { ...tenpoEnv(port), TENPO_WORKER: 'false' },
      ready: `http://127.0.0.1:${port}/api/health`,
    }),
  );
}
{
  const port = await freePort();
  runs.push(
    await measure('Tenpo worker', [path.join(dist, 'worker.mjs')], {
      env: {
        ...tenpoEnv(port),
        WORKER_HEALTH_PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      },
      ready: /worker is up/,
    }),
  );
}
{
  const port = await freePort();
  runs.push(
    await measure('Tenpo one process (API + worker)', [path.join(dist, 'server.mjs')], {
      env: tenpoEnv(port),
      ready: `http://127.0.0.1:${port}/api/health`,
    }),
  );
}
{
  const port = await freePort();
  runs.push(
    await measure(
      'Tenpo API, --enable-source-maps',
      ['--enable-source-maps', path.join(dist, 'server.mjs')],
      {
        env: { ...tenpoEnv(port), TENPO_WORKER: 'false' },
        ready: `http://127.0.0.1:${port}/api/health`,
      },
    ),
  );
}
if (process.argv.includes('--knobs')) {
  // Settings an operator can apply without a code change, each on the API process alone.
  const knobs = [
    ['MALLOC_ARENA_MAX=2', { MALLOC_ARENA_MAX: '2' }, []],
    ['--max-semi-space-size=1', {}, ['--max-semi-space-size=1']],
    ['--lite-mode (no optimising JIT)', {}, ['--lite-mode']],
    ['all three above but --lite-mode', { MALLOC_ARENA_MAX: '2' }, ['--max-semi-space-size=1']],
  ];
  for (const [label, env, flags] of knobs) {
    const port = await freePort();
    runs.push(
      await measure(`Tenpo API, ${label}`, [path.join(dist, 'server.mjs')], {
        env: { ...tenpoEnv(port), TENPO_WORKER: 'false', ...env },
        flags,
        ready: `http://127.0.0.1:${port}/api/health`,
      }),
    );
  }
}

// What `npm start` adds: scripts/start.mjs stays the server's parent, a second node process.
let wrapperKb;
{
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...tenpoEnv(port), TENPO_WORKER: 'false' },
    stdio: 'ignore',
  });
  const gone = new Promise((r) => child.on('exit', r));
  for (let i = 0; i < 1200; i += 1) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) break;
    await sleep(50);
  }
  await sleep(SETTLE_MS);
  wrapperKb = statusKb(child.pid).rss;
  child.kill('SIGTERM');
  await gone;
}

console.log(`idle memory after ${SETTLE_MS} ms and two GCs, Node ${process.version}:`);
console.log(`  ${'process'.padEnd(38)}    RSS   anon   file   heap  htotal extern   code`);
for (const r of runs) {
  const code = (r.inside.spaces.code_space ?? 0) + (r.inside.spaces.code_large_object_space ?? 0);
  console.log(
    `  ${r.name.padEnd(38)} ${mb(r.rss)} ${mb(r.anon)} ${mb(r.file)} ${bytesMb(r.inside.heapUsed)} ${bytesMb(r.inside.heapTotal)} ${bytesMb(r.inside.external)} ${bytesMb(code)}`,
  );
}
const node = runs[0];
const hello = runs[1];
console.log('ratio to the Fastify hello server (RSS):');
for (const r of runs.slice(2))
  console.log(
    `  ${r.name.padEnd(38)} ${(r.rss / hello.rss).toFixed(2)}  (${mb(r.rss - node.rss).trim()} MB above an idle node)`,
  );
console.log(
  `npm start also keeps scripts/start.mjs running as the server's parent: ${mb(wrapperKb).trim()} MB RSS (the image runs the bundle directly)`,
);
for (const r of runs.slice(2, 4))
  console.log(
    `goal ≤ ${GOAL_MB} MB: ${r.name}: ${mb(r.rss).trim()} MB ${r.rss / 1024 <= GOAL_MB ? 'met' : 'NOT met'}`,
  );

if (process.argv.includes('--heap')) {
  // The API's heap by what holds it: V8's node types, and objects by constructor (self sizes).
  const file = path.join(tmp, 'api.heapsnapshot');
  const port = await freePort();
  await measure('heap', [path.join(dist, 'server.mjs')], {
    env: { ...tenpoEnv(port), TENPO_WORKER: 'false', BENCH_HEAP_SNAPSHOT: file },
    ready: `http://127.0.0.1:${port}/api/health`,
  });
  const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
  const f = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [ti, ni, si] = ['type', 'name', 'self_size'].map((k) => f.indexOf(k));
  const by = new Map();
  const strings = [];
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += f.length) {
    const type = types[snap.nodes[i + ti]];
    const size = snap.nodes[i + si];
    const key = type === 'object' ? `object ${snap.strings[snap.nodes[i + ni]]}` : type;
    by.set(key, (by.get(key) ?? 0) + size);
    total += size;
    if (type === 'string' && size > 100_000) strings.push([size, snap.strings[snap.nodes[i + ni]]]);
  }
  console.log(`API heap snapshot: ${bytesMb(total).trim()} MB, the largest kinds (MB):`);
  for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${k.slice(0, 50).padEnd(50)} ${bytesMb(v)}`);
  // Strings over 100 kB: mostly the source text V8 keeps of each module it loaded.
  strings.sort((a, b) => b[0] - a[0]);
  const big = strings.reduce((n, [size]) => n + size, 0);
  console.log(`  strings over 100 kB: ${strings.length}, ${bytesMb(big).trim()} MB; the largest:`);
  for (const [size, text] of strings.slice(0, 8))
    console.log(`  ${bytesMb(size)}  ${JSON.stringify(text.slice(0, 70))}`);
}

if (process.argv.includes('--modules')) {
  // Each package the bundle imports, alone in an idle node: heap and RSS it adds.
  const bundle = fs.readFileSync(path.join(dist, 'server.mjs'), 'utf8');
  const pkgs = [...new Set([...bundle.matchAll(/from "([^".][^"]*)"/g)].map((m) => m[1]))]
    .filter((p) => !p.startsWith('node:'))
    .sort();
  console.log('each imported package alone, above an idle node (RSS / heap, MB):');
  const rows = [];
  for (const p of pkgs) {
    const r = await measure(
      `import ${p}`,
      [
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(p)}); setInterval(() => {}, 1 << 30); console.log('ready');`,
      ],
      { ready: /ready/, env: {} },
    ).catch((err) => ({ name: p, error: err.message.split('\n')[0] }));
    rows.push({ p, r });
  }
  rows.sort((a, b) => (b.r.rss ?? 0) - (a.r.rss ?? 0));
  for (const { p, r } of rows)
    console.log(
      r.error
        ? `  ${p.padEnd(44)} ${r.error}`
        : `  ${p.padEnd(44)} ${mb(r.rss - node.rss)} ${bytesMb(r.inside.heapUsed - node.inside.heapUsed)}`,
    );
}
