// Uploads (issue 22 item 1, ADR 0064): memory and throughput of POST /api/photos/upload, against
// a reference measured in the same run on this machine, a bare streaming sink (Fastify with
// @fastify/multipart piping each file to a file on disk, no checks).
//
// - P5: 8 parallel uploads of one 20 MB photo each, by the store's owner. Throughput (MB/s of
//   request bodies) of Tenpo and of the sink, round after round; the median ratio Tenpo / sink
//   is printed (goal ≥ 0.5), and the RSS each server gains over its idle RSS (goal ≤ 64 MB).
// - 20 parallel requests of 10 × 20 MB photos by another tenant (a foreign store: 404), and by
//   the owner (the upload budget answers 429 past 512 MB in flight for one user), each in a
//   fresh server: the peak RSS above idle (goal ≤ 64 MB).
// - BENCH_UPLOADS_UNCAPPED=1 also runs the owner's 20 × 10 × 20 MB with the budget lifted, so
//   that all 4 GB stream at once (it writes 4 GB to the temporary folder).
//
// The servers run in processes of their own (bench/support/upload-server.ts); the bodies are
// sent from this one, streamed from one 20 MB buffer. RSS is read from /proc every 5 ms.
// Run: node --import tsx bench/uploads.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MB = 1024 * 1024;
const GOAL_RATIO = 0.5;
const GOAL_MB = 64;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

type Server = { child: ChildProcess; port: number; apiKey: string; pid: number };
async function start(kind: 'tenpo' | 'sink', env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'support/upload-server.ts'), kind],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
  const { port, apiKey } = JSON.parse(line) as { port: number; apiKey?: string };
  return { child, port, apiKey: apiKey ?? '', pid: child.pid ?? 0 };
}
const stop = async (s: Server) => {
  const gone = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await gone;
};

/** A 20 MB photo that passes every check: random pixels as PNG (random data does not shrink). */
const side = 2550;
const photo = await sharp(randomBytes(side * side * 3), {
  raw: { width: side, height: side, channels: 3 },
})
  .png({ compressionLevel: 1 })
  .toBuffer();
if (photo.length > 20 * MB) throw new Error(`the photo is ${photo.length} bytes, over 20 MB`);

const BOUNDARY = 'tenpo-bench-uploads';
/**
 * One multipart request streamed from the same photo buffer (nothing per request is held): the
 * fields, then `files` copies of the photo. Resolves with the status; an early answer (404, 429)
 * stops the sending.
 */
function upload(
  port: number,
  urlPath: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  field: string,
  files: number,
): Promise<number> {
  const head = Buffer.from(
    Object.entries(fields)
      .map(
        ([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
      )
      .join(''),
  );
  const partHead = (i: number) =>
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="p${i}.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
  const tail = Buffer.from(`--${BOUNDARY}--\r\n`);
  let length = head.length + tail.length;
  for (let i = 0; i < files; i++) length += partHead(i).length + photo.length + 2;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: urlPath,
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(length),
      },
    });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const write = (b: Buffer) =>
      answered
        ? Promise.resolve(false)
        : new Promise<boolean>((r) => {
            if (req.write(b)) r(true);
            else req.once('drain', () => r(!answered));
          });
    void (async () => {
      if (!(await write(head))) return;
      for (let i = 0; i < files; i++) {
        if (!(await write(partHead(i)))) return;
        const CHUNK = 256 * 1024;
        for (let at = 0; at < photo.length; at += CHUNK)
          if (!(await write(photo.subarray(at, at + CHUNK)))) return;
        if (!(await write(Buffer.from('\r\n')))) return;
      }
      if (!(await write(tail))) return;
      if (!answered) req.end();
    })();
  });
}

/** Runs `work` while sampling the server's RSS; returns its result, the time and the peak. */
async function sampled<T>(pid: number, work: () => Promise<T>) {
  let peak = rssKb(pid);
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, rssKb(pid));
      await sleep(5);
    }
  })();
  const t0 = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  running = false;
  await sampler;
  return { result, seconds, peakKb: Math.max(peak, rssKb(pid)) };
}

async function loginAs(s: Server, email: string) {
  const res = await fetch(`http://127.0.0.1:${s.port}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': s.apiKey },
    body: JSON.stringify({ email, password: 'tenpo-demo-1' }),
  });
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  const headers = { authorization: `Bearer ${token}`, 'x-api-key': s.apiKey };
  const me = await fetch(`http://127.0.0.1:${s.port}/api/account-setting/information`, {
    headers,
  });
  const id = ((await me.json()) as { data: { id: number } }).data.id;
  return { headers, id };
}

const OWNER = 'newshop@tenpo.example';
const FOREIGN = 'shop@tenpo.example';
/** Idle RSS: after one small warm-up upload and a second of rest. */
async function idleOf(s: Server, warm: () => Promise<unknown>) {
  await warm();
  await sleep(1000);
  return rssKb(s.pid);
}
const mbOf = (kb: number) => (kb / 1024).toFixed(1);
const count = (xs: number[]) =>
  Object.entries(xs.reduce<Record<number, number>>((m, x) => ({ ...m, [x]: (m[x] ?? 0) + 1 }), {}))
    .map(([k, v]) => `${v}× ${k}`)
    .join(', ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

console.log(
  `uploads: photo ${(photo.length / MB).toFixed(2)} MB (PNG ${side}×${side}), Node ${process.version}, ${ROUNDS} round(s); the machine's cores may be shared with other work`,
);

// ---- P5: 8 parallel × one 20 MB photo, Tenpo against the bare sink, in the same run. ----
{
  const sink = await start('sink');
  const tenpo = await start('tenpo');
  const owner = await loginAs(tenpo, OWNER);
  const toSink = () => upload(sink.port, '/sink', {}, {}, 'file', 1);
  const toTenpo = () =>
    upload(
      tenpo.port,
      '/api/photos/upload',
      owner.headers,
      { user_id: String(owner.id) },
      'photos',
      1,
    );
  const sinkIdle = await idleOf(sink, toSink);
  const tenpoIdle = await idleOf(tenpo, toTenpo);
  const ratios: number[] = [];
  let sinkPeak = 0;
  let tenpoPeak = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const ref = await sampled(sink.pid, () => Promise.all(Array.from({ length: 8 }, toSink)));
    const ours = await sampled(tenpo.pid, () => Promise.all(Array.from({ length: 8 }, toTenpo)));
    if (ours.result.some((s) => s !== 200)) throw new Error(`Tenpo answered ${count(ours.result)}`);
    const bytes = 8 * photo.length;
    const refRate = bytes / MB / ref.seconds;
    const ourRate = bytes / MB / ours.seconds;
    ratios.push(ourRate / refRate);
    sinkPeak = Math.max(sinkPeak, ref.peakKb - sinkIdle);
    tenpoPeak = Math.max(tenpoPeak, ours.peakKb - tenpoIdle);
    console.log(
      `round ${round}: sink ${refRate.toFixed(0)} MB/s (+${mbOf(ref.peakKb - sinkIdle)} MB RSS), Tenpo ${ourRate.toFixed(0)} MB/s (+${mbOf(ours.peakKb - tenpoIdle)} MB RSS), ratio ${(ourRate / refRate).toFixed(3)}`,
    );
  }
  const ratio = median(ratios);
  console.log(
    `P5 8 × 20 MB: median ratio (Tenpo / bare streaming sink throughput) ${ratio.toFixed(3)} (goal ≥ ${GOAL_RATIO}: ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'}); RSS above idle: Tenpo +${mbOf(tenpoPeak)} MB (idle ${mbOf(tenpoIdle)} MB; goal ≤ ${GOAL_MB}: ${tenpoPeak / 1024 <= GOAL_MB ? 'met' : 'NOT met'}), sink +${mbOf(sinkPeak)} MB (idle ${mbOf(sinkIdle)} MB)`,
  );
  await stop(sink);
  await stop(tenpo);
}

// ---- 20 parallel × 10 × 20 MB: a foreign tenant, then the owner, each in a fresh server. ----
const crowd = async (label: string, env: Record<string, string>, who: string) => {
  const tenpo = await start('tenpo', env);
  const owner = await loginAs(tenpo, OWNER);
  const sender = who === OWNER ? owner : await loginAs(tenpo, who);
  const idle = await idleOf(tenpo, () =>
    upload(
      tenpo.port,
      '/api/photos/upload',
      owner.headers,
      { user_id: String(owner.id) },
      'photos',
      1,
    ),
  );
  const run = await sampled(tenpo.pid, () =>
    Promise.all(
      Array.from({ length: 20 }, () =>
        upload(
          tenpo.port,
          '/api/photos/upload',
          sender.headers,
          { user_id: String(owner.id) },
          'photos',
          10,
        ),
      ),
    ),
  );
  const above = run.peakKb - idle;
  console.log(
    `${label}: answers ${count(run.result)} in ${run.seconds.toFixed(1)} s; peak RSS +${mbOf(above)} MB above idle ${mbOf(idle)} MB (goal ≤ ${GOAL_MB}: ${above / 1024 <= GOAL_MB ? 'met' : 'NOT met'})`,
  );
  await stop(tenpo);
};
await crowd('20 × (10 × 20 MB) by another tenant', {}, FOREIGN);
await crowd('20 × (10 × 20 MB) by the owner, default budget', {}, OWNER);
if (process.env.BENCH_UPLOADS_UNCAPPED === '1')
  await crowd(
    '20 × (10 × 20 MB) by the owner, budget lifted (all 20 stream at once)',
    { UPLOAD_INFLIGHT_USER_MB: '100000', UPLOAD_INFLIGHT_PROCESS_MB: '100000' },
    OWNER,
  );
