import type { FastifyInstance } from 'fastify';
import { ping, type Db, type Dialect } from '../db/kysely';
import type { Queue } from '../jobs/queue';

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
    { schema: { tags: ['health'], summary: 'Liveness of the database and the job worker' } },
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
