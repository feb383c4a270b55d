// Issue 9, "Measure" (part): GET /api/posts with 50 rows (each with its targets) against a bare
// node:http route returning the same JSON, both measured in this run on this machine: the
// throughput ratio (issue 26 P2: goal ≥ 50 %), then Tenpo's p99 at half its own throughput
// (goal ≤ 50 ms). The 1,000 stores × 4 channels and the lone-scheduled-post figures are in
// bench/delivery.ts. Run: node_modules/.bin/node --import tsx bench/posts.ts
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { buildApp } from '../apps/api/src/app';
import { demoSeedFor } from '../apps/api/src/compose';
import { loadConfig } from '../apps/api/src/config';
import { openDatabase } from '../apps/api/src/db/kysely';
import { migrateToLatest } from '../apps/api/src/db/migrate';
import { seedDemo } from '../apps/api/src/db/seed';
import { systemClock } from '../apps/api/src/lib/clock';

const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = 20;
const require = createRequire(import.meta.url);
const autocannonBin = path.join(
  path.dirname(require.resolve('autocannon/package.json')),
  'autocannon.js',
);
const run = (url: string, headers: Record<string, string>, rate?: number) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    const args = [autocannonBin, '--json', '-c', String(CONNECTIONS), '-d', String(DURATION)];
    if (rate) args.push('-R', String(Math.max(1, Math.floor(rate))));
    for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
    execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(JSON.parse(stdout) as autocannon.Result),
    );
  });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-posts-'));
const config = loadConfig({
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  TENPO_WORKER: 'false',
  RATE_LIMIT_AUTH_PER_MINUTE: '1000',
});
const database = openDatabase(config.databaseUrl);
await migrateToLatest(database);
await seedDemo(database.db, systemClock, demoSeedFor(config));
const app = await buildApp(config, { database, logger: false, mail: { send: async () => {} } });
await app.listen({ port: 0, host: '127.0.0.1' });
const apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const login = await fetch(`${apiUrl}/api/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': config.apiKey },
  body: JSON.stringify({ email: 'shop@tenpo.example', password: 'tenpo-demo-1' }),
});
const { token, user } = ((await login.json()) as { data: { token: string; user: { id: number } } })
  .data;
const shop =
  user?.id ??
  (
    await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'shop@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
const headers = {
  authorization: `Bearer ${token}`,
  'x-api-key': config.apiKey,
  accept: 'application/json',
};
for (let i = 0; i < 50; i++) {
  const form = new FormData();
  form.set('user_id', String(shop));
  form.set('content', `ベンチ投稿 ${i + 1}: 本日のおすすめランチのご案内です。`);
  form.set('shared_sns_type', 'google_my_business,facebook');
  const res = await fetch(`${apiUrl}/api/posts`, { method: 'POST', headers, body: form });
  if (res.status !== 200) throw new Error(`POST /api/posts ${res.status}: ${await res.text()}`);
}
const listUrl = `${apiUrl}/api/posts?user_id=${shop}&limit=50`;
const sample = await (await fetch(listUrl, { headers })).text();
const rows = (JSON.parse(sample) as { data: { data: { data: unknown[] } } }).data.data.data;
if (rows.length !== 50) throw new Error(`expected 50 rows, got ${rows.length}`);

const bare = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(JSON.parse(sample)));
});
await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;

await run(bareUrl, {});
await run(listUrl, headers);
const ref = await run(bareUrl, {});
const ours = await run(listUrl, headers);
if (ours.non2xx > 0 || ours.errors > 0) throw new Error(`Tenpo answered ${ours.non2xx} non-2xx`);
// Half of the load Tenpo sustained at full tilt.
const half = ours.requests.average / 2;
const atHalf = await run(listUrl, headers, half);
const refAtHalf = await run(bareUrl, {}, half);
const line = (name: string, r: autocannon.Result) =>
  `${name.padEnd(46)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms`;
console.log(
  `GET /api/posts, 50 rows (${(sample.length / 1024).toFixed(0)} KB), autocannon ${CONNECTIONS} connections, ${DURATION} s, Node ${process.version}`,
);
console.log(line('reference: bare node:http, same JSON', ref));
console.log(line('Tenpo: GET /api/posts?limit=50', ours));
const ratio = ours.requests.average / ref.requests.average;
console.log(
  `throughput ratio (Tenpo / reference): ${(ratio * 100).toFixed(1)} % (goal ≥ 50 %, issue 26 P2)`,
);
console.log(line(`reference at ${half.toFixed(0)} req/s offered`, refAtHalf));
console.log(line(`Tenpo at ${half.toFixed(0)} req/s offered (half its own max)`, atHalf));
console.log(
  `p99 at half load: ${atHalf.latency.p99} ms (goal ≤ 50 ms; reference ${refAtHalf.latency.p99} ms, ratio ${(atHalf.latency.p99 / Math.max(1, refAtHalf.latency.p99)).toFixed(1)}×)`,
);

await app.close();
await new Promise((r) => bare.close(r));
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
