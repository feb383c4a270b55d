import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_PROVIDERS, buildBundles } from './bundle';
import { freePort } from './sandbox';

// The drain window and the worker's probes (issue 20 §6, ADR 0052) on the compiled bundles,
// started as processes the way `npm start` and `npm run worker` start them.
let dir: string;
let out: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-ops-'));
  out = buildBundles();
}, 60_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});

/** A production configuration with live providers (what a real deployment looks like). */
const LIVE = {
  ...LIVE_PROVIDERS,
  TENPO_SECRET_KEY: 'ef'.repeat(32),
  SMTP_URL: 'smtp://127.0.0.1:2525',
  PUBLIC_URL: 'https://tenpo.example',
};

const start = (file: string, env: Record<string, string>) => {
  const child = spawn(process.execPath, [path.join(out, file)], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      LOG_LEVEL: 'warn',
      TENPO_API_KEY: 'ops-process-key',
      HOST: '127.0.0.1',
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => output };
};

const waitFor = async (what: string, ok: () => Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/**
 * autocannon 8 ignores `Connection: close` (RFC 9112 §9.6: a client must then send no more
 * requests on that connection): it writes its next request on the socket the server is closing,
 * and never counts it. Browsers, Node's agent and load balancers honour it; this makes autocannon
 * do the same, through its setupClient hook, by opening a new connection for its next request.
 */
const honourConnectionClose = (client: unknown): void => {
  const c = client as {
    on(event: 'headers', fn: (h: { headers: unknown[] }) => void): void;
    _doRequest: (...a: unknown[]) => unknown;
    _resetConnection: () => void;
  };
  let closing = false;
  c.on('headers', ({ headers }) => {
    for (let i = 0; i < headers.length; i += 2)
      if (
        String(headers[i]).toLowerCase() === 'connection' &&
        /close/i.test(String(headers[i + 1]))
      )
        closing = true;
  });
  const doRequest = c._doRequest;
  c._doRequest = function (this: typeof c, ...a: unknown[]) {
    if (!closing) return doRequest.apply(this, a);
    closing = false;
    this._resetConnection();
    return undefined;
  };
};

type Run = {
  sigtermAt: number;
  result: autocannon.Result;
  readyDuringDrain: number[];
  closeHeader: string | null;
  exit: number | null;
  exitedAt: number;
};

/**
 * A bounded autocannon run (AMOUNT requests at RATE a second over keep-alive connections),
 * SIGTERM half a second in; the run is over well before a drain window of DRAIN seconds ends.
 */
const AMOUNT = 600;
const RATE = 200;
async function loadAndTerminate(drainSeconds: number): Promise<Run> {
  const port = await freePort();
  const api = start('server.mjs', {
    DATA_DIR: path.join(dir, `drain-${drainSeconds}`),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SHUTDOWN_DRAIN_SECONDS: String(drainSeconds),
    TENPO_SEED_DEMO: 'false',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor('the API', async () => (await fetch(`${base}/api/health/ready`)).status === 200);
    const running = autocannon({
      url: `${base}/api/health`,
      connections: 8,
      amount: AMOUNT,
      overallRate: RATE,
      setupClient: honourConnectionClose,
    });
    await new Promise((r) => setTimeout(r, 500));
    const sigtermAt = Date.now();
    api.child.kill('SIGTERM');
    const readyDuringDrain: number[] = [];
    let closeHeader: string | null = null;
    if (drainSeconds > 0) {
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 3; i += 1) {
        const res = await fetch(`${base}/api/health/ready`);
        readyDuringDrain.push(res.status);
        closeHeader = res.headers.get('connection');
        await res.arrayBuffer();
      }
    }
    const result = await running;
    const exit = await api.exited;
    return { sigtermAt, result, readyDuringDrain, closeHeader, exit, exitedAt: Date.now() };
  } finally {
    if (api.child.exitCode === null) api.child.kill('SIGKILL');
  }
}

describe('SIGTERM under load', () => {
  it('drops no request sent before the drain window ends, turns unready, then exits', async () => {
    // Ten seconds: the 3 s run fits inside with room to spare on a busy machine (the suites run
    // two files at a time, ADR 0067), where a slower run would have outlasted a five-second window.
    const DRAIN = 10;
    const run = await loadAndTerminate(DRAIN);
    const r = run.result;
    // The whole run fell inside the window: every request of it had to be answered.
    expect(r.duration * 1000).toBeLessThan(500 + DRAIN * 1000);
    expect({
      errors: r.errors,
      timeouts: r.timeouts,
      resets: r.resets,
      non2xx: r.non2xx,
      ok: r['2xx'],
    }).toEqual({ errors: 0, timeouts: 0, resets: 0, non2xx: 0, ok: AMOUNT });
    expect(run.readyDuringDrain).toEqual([503, 503, 503]);
    expect(run.closeHeader).toBe('close');
    expect(run.exit).toBe(0);
    // It served out its window before closing.
    expect(run.exitedAt - run.sigtermAt).toBeGreaterThanOrEqual(DRAIN * 1000 - 100);
  }, 60_000);

  it('without a drain window the same run loses requests (what the window is for)', async () => {
    const run = await loadAndTerminate(0);
    expect(run.exit).toBe(0);
    expect(run.result['2xx']).toBeLessThan(AMOUNT);
    expect(run.result.errors).toBeGreaterThan(0);
  }, 60_000);
});

describe('the worker process', () => {
  it('serves its probes and its metrics on WORKER_HEALTH_PORT, one worker to a port, and closes it on SIGTERM', async () => {
    const port = await freePort();
    const healthPort = await freePort();
    const data = path.join(dir, 'worker');
    const token = 'worker-metrics-token-0123';
    // The API process migrates the database; the worker only waits for it.
    const api = start('server.mjs', {
      DATA_DIR: data,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      TENPO_WORKER: 'false',
      TENPO_SEED_DEMO: 'false',
    });
    let worker: ReturnType<typeof start> | null = null;
    const others: ReturnType<typeof start>[] = [];
    const h = `http://127.0.0.1:${healthPort}`;
    try {
      await waitFor(
        'the API',
        async () => (await fetch(`http://127.0.0.1:${port}/api/health/ready`)).ok,
      );
      const metricsPort = await freePort();
      worker = start('worker.mjs', {
        DATA_DIR: data,
        WORKER_HEALTH_PORT: String(healthPort),
        METRICS_PORT: String(metricsPort),
        METRICS_TOKEN: token,
        JOB_POLL_MS: '100',
      });
      await waitFor(
        'the worker ready',
        async () => (await fetch(`${h}/api/health/ready`)).status === 200,
      );
      const ready = await (await fetch(`${h}/ready`)).json();
      expect(ready).toEqual({
        status_code: 200,
        data: {
          status: 'ready',
          draining: false,
          database: 'ok',
          migrations: 'applied',
          queue: 'running',
        },
      });
      expect(await (await fetch(`${h}/api/health/live`)).json()).toEqual({
        status_code: 200,
        data: { status: 'ok' },
      });
      expect((await fetch(`${h}/metrics`)).status).toBe(401);
      const metrics = await fetch(`${h}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('process_resident_memory_bytes');
      expect((await fetch(`${h}/api/anything-else`)).status).toBe(404);
      // Its own metrics port asks for the token too, and serves nothing else.
      const m = `http://127.0.0.1:${metricsPort}`;
      expect((await fetch(`${m}/metrics`)).status).toBe(401);
      const scraped = await fetch(`${m}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('tenpo_job_runs_total');
      expect((await fetch(`${m}/ready`)).status).toBe(404);

      // A second worker on the same port: in production it refuses to start, naming the
      // variable; elsewhere it runs without probes.
      const prod = start('worker.mjs', {
        ...LIVE,
        NODE_ENV: 'production',
        DATA_DIR: data,
        WORKER_HEALTH_PORT: String(healthPort),
      });
      others.push(prod);
      expect(await prod.exited).toBe(1);
      expect(prod.output()).toMatch(/WORKER_HEALTH_PORT: cannot listen on 127\.0\.0\.1:\d+/);
      const second = start('worker.mjs', {
        DATA_DIR: data,
        WORKER_HEALTH_PORT: String(healthPort),
      });
      others.push(second);
      await waitFor('the second worker', async () =>
        second.output().includes('running without probes'),
      );
      await new Promise((r) => setTimeout(r, 1000));
      expect(second.child.exitCode, second.output()).toBeNull();
      second.child.kill('SIGTERM');
      expect(await second.exited, second.output()).toBe(0);
      worker.child.kill('SIGTERM');
      expect(await worker.exited, worker.output()).toBe(0);
      // Its port is closed with it.
      await expect(fetch(`${h}/api/health/live`)).rejects.toThrow();
    } finally {
      for (const p of [worker, ...others])
        if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
      api.child.kill('SIGTERM');
      expect(await api.exited, api.output()).toBe(0);
    }
  }, 60_000);
});
