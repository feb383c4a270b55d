#!/usr/bin/env node
// Start-up of the server as `npm start` runs it (the esbuild bundle, apps/api/dist/server.mjs)
// against the same server run from its TypeScript sources through tsx (`npm run dev`), measured
// in this run: time from spawn to the first 200 from /api/health, and the resident memory then.
// Each runs on an already migrated and seeded data folder, so only loading is compared.
// Run `npm run build` first. Prints the figures and the ratio bundle / tsx.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './support/free-port.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'apps/api/dist/server.mjs');
if (!fs.existsSync(bundle)) {
  console.error('apps/api/dist/server.mjs is missing: run `npm run build` first.');
  process.exit(1);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-start-'));

const rssKb = (pid) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
};

async function once(args) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      TENPO_WORKER: 'false',
    },
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let ms;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) {
      ms = performance.now() - started;
      break;
    }
    if (performance.now() - started > 60_000) throw new Error(`no answer from ${args.join(' ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const rss = rssKb(child.pid);
  child.kill('SIGTERM');
  await exited;
  return { ms, rss };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const measure = async (args) => {
  const runs = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await once(args));
  return { ms: median(runs.map((r) => r.ms)), rss: median(runs.map((r) => r.rss)) };
};

const tsxArgs = ['--import', 'tsx', path.join(root, 'apps/api/src/server.ts')];
await once(tsxArgs); // migrates and seeds the data folder, warms the disk cache
const reference = await measure(tsxArgs);
const ours = await measure(['--enable-source-maps', bundle]);
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(`server start, median of ${RUNS}, Node ${process.version}:`);
console.log(
  `  reference: tsx from source  ${reference.ms.toFixed(0).padStart(5)} ms  ${(reference.rss / 1024).toFixed(0)} MB`,
);
console.log(
  `  Tenpo: compiled bundle       ${ours.ms.toFixed(0).padStart(5)} ms  ${(ours.rss / 1024).toFixed(0)} MB`,
);
console.log(
  `ratio (bundle / tsx): time ${(ours.ms / reference.ms).toFixed(2)}, memory ${(ours.rss / reference.rss).toFixed(2)}`,
);
