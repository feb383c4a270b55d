import http from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics (ADR 0052). One registry per process, at module level: the places that
 * count (the job engine, the limiter, the channels' fetch) are built far from any Fastify
 * instance, and a process has one /metrics to scrape. Labels are bounded sets only: a route's
 * pattern (never its URL), a queue's name, a channel, a limit's kind (never an account or store).
 */
export const registry = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Its `_count` series is the request count by route and status. */
export const httpRequestSeconds = new Histogram({
  name: 'tenpo_http_request_duration_seconds',
  help: 'HTTP requests served, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const jobRuns = new Counter({
  name: 'tenpo_job_runs_total',
  help: 'Job runs that ended, by queue and outcome (completed, retry, failed, deferred, aborted)',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
});

export const jobFailures = new Counter({
  name: 'tenpo_job_failures_total',
  help: 'Job runs that threw, by queue; final="true" when the job will not run again',
  labelNames: ['queue', 'final'] as const,
  registers: [registry],
});

export const jobLagSeconds = new Histogram({
  name: 'tenpo_job_lag_seconds',
  help: 'Time from a job being due to its run starting, by queue',
  labelNames: ['queue'] as const,
  buckets: [0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [registry],
});

export const jobRunSeconds = new Histogram({
  name: 'tenpo_job_run_duration_seconds',
  help: 'How long a job run took, by queue',
  labelNames: ['queue'] as const,
  buckets: [0.01, 0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [registry],
});

export const providerCalls = new Counter({
  name: 'tenpo_provider_requests_total',
  help: 'HTTP calls to a provider, by channel and result (ok, client_error, rate_limited, server_error, timeout, network_error)',
  labelNames: ['channel', 'result'] as const,
  registers: [registry],
});

export const providerErrors = new Counter({
  name: 'tenpo_provider_errors_total',
  help: 'Provider calls that did not succeed, by channel and result',
  labelNames: ['channel', 'result'] as const,
  registers: [registry],
});

export const providerSeconds = new Histogram({
  name: 'tenpo_provider_request_duration_seconds',
  help: 'Provider call latency to the response headers, by channel',
  labelNames: ['channel'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
  registers: [registry],
});

export const rateLimitWaits = new Counter({
  name: 'tenpo_rate_limit_waits_total',
  help: 'Job starts held back by a rate limit or quota, by the limit (its first two key parts)',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export const rateLimitWaitSeconds = new Histogram({
  name: 'tenpo_rate_limit_wait_seconds',
  help: 'How long a held-back job start waits for its limit, by the limit',
  labelNames: ['limit'] as const,
  buckets: [1, 5, 15, 60, 300, 900, 3600, 21_600, 86_400],
  registers: [registry],
});

let defaults = false;
/**
 * Node's process metrics (CPU, memory, event-loop lag, GC), started only where metrics are
 * served: their collectors cost a little in every process that would never be scraped.
 */
export function enableProcessMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics({ register: registry });
}

/** A limit's key, cut to its kind: `channel:facebook:publish:…:account:1` → `channel:facebook`. */
export const limitLabelOf = (key: string): string => key.split(':', 2).join(':');

/**
 * Counts every request by its route pattern. One hook, one observe: the authenticated-read hot
 * path (bench/auth-read.ts) pays nothing more; only added where metrics are served.
 */
export function registerRequestMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    httpRequestSeconds.observe(
      {
        method: req.method,
        route: req.routeOptions.url ?? 'unmatched',
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <token>`, compared in constant time. */
export const bearerMatches = (header: string | undefined, token: string): boolean =>
  typeof header === 'string' && timingSafeEqual(digest(header), digest(`Bearer ${token}`));

const refusal = JSON.stringify({
  status_code: 401,
  code: 'unauthenticated',
  message: 'METRICS_TOKEN required',
});

/**
 * Answers a /metrics request on a plain Node server (a worker's health port, the metrics port).
 * With a token, only a caller that presents it gets the metrics.
 */
export async function serveMetrics(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  token: string | null,
): Promise<void> {
  if (token !== null && !bearerMatches(req.headers.authorization, token)) {
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
    res.end(refusal);
    return;
  }
  const body = await registry.metrics();
  res.writeHead(200, { 'content-type': registry.contentType });
  res.end(body);
}

/**
 * /metrics on the main port, behind METRICS_TOKEN. Outside /api: no API key, no OpenAPI entry;
 * the token is the only way in.
 */
export function registerMetricsRoute(app: FastifyInstance, token: string): void {
  enableProcessMetrics();
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!bearerMatches(req.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .type('application/json')
        .send(refusal);
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

/** A server of its own for /metrics (METRICS_PORT); anything else is 404. */
export async function startMetricsServer(
  port: number,
  host: string,
  token: string | null,
): Promise<http.Server> {
  enableProcessMetrics();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/metrics') {
      serveMetrics(req, res, token).catch(() => {
        res.writeHead(500).end();
      });
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"status_code":404}');
  });
  await listen(server, port, host);
  return server;
}

/** Listens, or rejects with the port in the message (a port in use must stop start-up). */
export const listen = (server: http.Server, port: number, host: string): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

export const closeServer = (server: http.Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
