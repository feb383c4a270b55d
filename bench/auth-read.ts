// Measures an authenticated read, GET /api/account-setting/information (session lookup, the
// API-key check, the user presenter, zod serialisation), against a bare Fastify route that
// returns a JSON body of the same size, both measured in this run on this machine.
// Run: npm run bench:auth (or node --import tsx bench/auth-read.ts). Prints the ratio.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import { buildApp } from '../apps/api/src/app';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import { systemClock } from '../apps/api/src/lib/clock';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
// Rounds of (reference, Tenpo) back to back; the median ratio is printed, so a burst of load
// from elsewhere on a shared machine skews one round rather than the result.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 20;

// The load comes from a second process, so the server under test has its own core.
const require = createRequire(import.meta.url);
const autocannonBin = path.join(
  path.dirname(require.resolve('autocannon/package.json')),
  'autocannon.js',
);
const run = (url: string, headers: Record<string, string>) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    const args = [autocannonBin, '--json', '-c', String(CONNECTIONS), '-d', String(DURATION)];
    for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
    execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout) as autocannon.Result),
    );
  });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-'));
const config = loadConfig({
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  TENPO_WORKER: 'false',
  RATE_LIMIT_AUTH_PER_MINUTE: '1000',
});
const database = openDatabase(config.databaseUrl);
await migrateToLatest(database);
await seedDemo(database.db, systemClock);
const app = await buildApp(config, { database, logger: false, mail: { send: async () => {} } });
await app.listen({ port: 0, host: '127.0.0.1' });
const apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const login = await fetch(`${apiUrl}/api/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': config.apiKey },
  body: JSON.stringify({ email: 'shop@tenpo.example', password: 'tenpo-demo-1' }),
});
const token = ((await login.json()) as { data: { token: string } }).data.token;
const headers = {
  authorization: `Bearer ${token}`,
  'x-api-key': config.apiKey,
  accept: 'application/json',
};
const sample = await (await fetch(`${apiUrl}/api/account-setting/information`, { headers })).text();
if (!sample.includes('shop@tenpo.example')) throw new Error(`unexpected response: ${sample}`);

const bare = Fastify();
const body = JSON.parse(sample) as unknown;
bare.get('/bare', async () => body);
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare`;

// Both servers live in this process and autocannon in another, so the CPU this process spends
// per request is each route's own cost, less sensitive to load than throughput.
const measure = async (url: string, h: Record<string, string>) => {
  const before = process.cpuUsage();
  const result = await run(url, h);
  const cpu = process.cpuUsage(before);
  return { result, cpuPerRequest: (cpu.user + cpu.system) / Math.max(1, result.requests.total) };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

// Warm both up, then per round measure the reference first and Tenpo second.
await run(bareUrl, {});
await run(`${apiUrl}/api/account-setting/information`, headers);
const line = (name: string, r: autocannon.Result, cpu: number) =>
  `${name.padEnd(44)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   ${cpu.toFixed(0)} µs CPU/req`;
console.log(
  `autocannon, ${CONNECTIONS} connections, ${DURATION} s each, ${ROUNDS} round(s), ${config.databaseUrl.startsWith('sqlite') ? 'SQLite' : 'PostgreSQL'}, Node ${process.version}`,
);
const ratios: number[] = [];
const cpuRatios: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const ref = await measure(bareUrl, {});
  const ours = await measure(`${apiUrl}/api/account-setting/information`, headers);
  if (ours.result.non2xx > 0 || ours.result.errors > 0)
    throw new Error(
      `Tenpo answered ${ours.result.non2xx} non-2xx and ${ours.result.errors} errors`,
    );
  const ratio = ours.result.requests.average / ref.result.requests.average;
  ratios.push(ratio);
  cpuRatios.push(ref.cpuPerRequest / ours.cpuPerRequest);
  console.log(`round ${round}`);
  console.log(line('reference: bare Fastify route, same JSON', ref.result, ref.cpuPerRequest));
  console.log(line('Tenpo: GET /api/account-setting/information', ours.result, ours.cpuPerRequest));
  console.log(`ratio (Tenpo / reference throughput): ${ratio.toFixed(3)}`);
}
console.log(
  `median ratio (Tenpo / reference throughput) over ${ROUNDS} round(s): ${median(ratios).toFixed(3)}` +
    ` (rounds ${ratios.map((r) => r.toFixed(3)).join(', ')});` +
    ` CPU per request, reference / Tenpo: ${median(cpuRatios).toFixed(3)}`,
);

await app.close();
await bare.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
