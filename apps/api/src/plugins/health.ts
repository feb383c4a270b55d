import http from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ping, type Db, type DbHandle, type Dialect } from '../db/kysely';
import { pendingMigrations } from '../db/migrate';
import type { Queue } from '../jobs/queue';
import { enableProcessMetrics, serveMetrics } from '../lib/metrics';
import { open } from './route-guards';

/**
 * GET /api/health: the database and the job worker; 503 when the database does not answer.
 * Public (no API key): it tells whether Tenpo is up, never why not — the database's error text
 * (hosts, users, paths) goes to the log only.
 */
export function registerHealth(
  app: FastifyInstance,
  deps: { db: Db; dialect: Dialect; queue: Queue; workerExpected: boolean },
): void {
  app.get(
    '/health',
    {
      ...open(),
      schema: { tags: ['health'], summary: 'Liveness of the database and the job worker' },
    },
    async (req, reply) => {
      const started = performance.now();
      let database: { status: 'ok' | 'down'; dialect: Dialect; latency_ms: number };
      try {
        await ping(deps.db);
        database = {
          status: 'ok',
          dialect: deps.dialect,
          latency_ms: Math.round((performance.now() - started) * 10) / 10,
        };
      } catch (err) {
        req.log.error({ err }, 'health: the database does not answer');
        database = { status: 'down', dialect: deps.dialect, latency_ms: 0 };
      }
      const worker =
        database.status === 'ok'
          ? { expected: deps.workerExpected, ...(await deps.queue.status()) }
          : { expected: deps.workerExpected, running: false };
      const healthy = database.status === 'ok' && (!deps.workerExpected || worker.running);
      reply.code(healthy ? 200 : 503);
      return {
        status_code: healthy ? 200 : 503,
        data: { status: healthy ? 'ok' : 'degraded', database, worker },
      };
    },
  );
}

/**
 * Readiness (ADR 0052): whether this process should be sent work. The database answers, its
 * migrations are all applied, and the process is not draining (an API process after SIGTERM);
 * for a worker, its queue runs too. "Applied" is remembered once true: migrations never go
 * away under a running process, and a probe every few seconds should cost one ping only.
 */
export type Readiness = {
  readonly draining: boolean;
  startDraining(): void;
  check(): Promise<ReadyAnswer>;
};

export type ReadyAnswer = {
  ready: boolean;
  data: {
    status: 'ready' | 'unready';
    draining: boolean;
    database: 'ok' | 'down' | 'unknown';
    migrations: 'applied' | 'pending' | 'unknown';
    queue?: 'running' | 'stopped';
  };
};

export function createReadiness(deps: {
  database: DbHandle;
  /** A worker's queue: ready only while it runs. */
  queue?: Queue;
  log: FastifyBaseLogger;
}): Readiness {
  let draining = false;
  let applied = false;
  return {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
    async check() {
      const data: ReadyAnswer['data'] = {
        status: 'unready',
        draining,
        database: 'unknown',
        migrations: applied ? 'applied' : 'unknown',
      };
      try {
        await ping(deps.database.db);
        data.database = 'ok';
        if (!applied) {
          applied = (await pendingMigrations(deps.database)).length === 0;
          data.migrations = applied ? 'applied' : 'pending';
        }
      } catch (err) {
        deps.log.error({ err }, 'ready: the database does not answer');
        data.database = 'down';
      }
      if (deps.queue) data.queue = (await statusOf(deps.queue)) ? 'running' : 'stopped';
      const ready =
        !draining &&
        data.database === 'ok' &&
        data.migrations === 'applied' &&
        (data.queue === undefined || data.queue === 'running');
      data.status = ready ? 'ready' : 'unready';
      return { ready, data };
    },
  };
}

const statusOf = async (queue: Queue): Promise<boolean> => {
  try {
    return (await queue.status()).running;
  } catch {
    return false;
  }
};

const LIVE = { status_code: 200, data: { status: 'ok' } } as const;

/**
 * GET /api/health/live and /api/health/ready. Live answers while the event loop does; ready
 * answers 503 whenever this process should get no traffic. Public, and they never say why in
 * words: the database's error text goes to the log only.
 */
export function registerProbes(app: FastifyInstance, readiness: Readiness): void {
  app.get(
    '/health/live',
    { ...open(), schema: { tags: ['health'], summary: 'Liveness: the process runs (always 200)' } },
    async () => LIVE,
  );
  app.get(
    '/health/ready',
    {
      ...open(),
      schema: {
        tags: ['health'],
        summary: 'Readiness: database reachable, migrations applied, not draining (else 503)',
      },
    },
    async (_req, reply) => {
      const { ready, data } = await readiness.check();
      reply.code(ready ? 200 : 503);
      return { status_code: ready ? 200 : 503, data };
    },
  );
}

const PROBE_PATHS: Record<string, 'live' | 'ready'> = {
  '/api/health/live': 'live',
  '/live': 'live',
  '/api/health/ready': 'ready',
  '/ready': 'ready',
};

/**
 * A worker's own small HTTP server (WORKER_HEALTH_PORT): the same two probes, and /metrics
 * when a METRICS_TOKEN is set. `readiness` is null while the worker is still starting (waiting
 * for its database or its migrations): live then, not ready.
 */
export function createProbeServer(
  readiness: () => Readiness | null,
  metricsToken: string | null,
): http.Server {
  if (metricsToken !== null) enableProcessMetrics();
  const json = (res: http.ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  return http.createServer((req, res) => {
    const url = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 404, { status_code: 404 });
    if (url === '/metrics' && metricsToken !== null) {
      serveMetrics(req, res, metricsToken).catch(() => res.writeHead(500).end());
      return;
    }
    const probe = PROBE_PATHS[url];
    if (probe === 'live') return json(res, 200, LIVE);
    if (probe !== 'ready') return json(res, 404, { status_code: 404 });
    const r = readiness();
    if (!r)
      return json(res, 503, {
        status_code: 503,
        data: { status: 'unready', starting: true },
      });
    r.check().then(
      ({ ready, data }) => json(res, ready ? 200 : 503, { status_code: ready ? 200 : 503, data }),
      () => json(res, 503, { status_code: 503, data: { status: 'unready' } }),
    );
  });
}
