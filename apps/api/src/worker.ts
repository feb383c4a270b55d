import type http from 'node:http';
import { ConfigError, loadConfig } from './config';
import { WorkerNotReadyError, composeWorker } from './compose';
import { closeServer, listen, startMetricsServer } from './lib/metrics';
import { createProbeServer, createReadiness, type Readiness } from './plugins/health';

/**
 * A worker process without API routes, for running jobs beside API processes (API processes then
 * run with TENPO_WORKER=false). It neither migrates nor serves the web app or the sandbox; it
 * serves only its probes (WORKER_HEALTH_PORT) and, when asked, its metrics (ADR 0052).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const servers: http.Server[] = [];
  let readiness: Readiness | null = null;
  // Signals are heard from the start: one that comes while the worker is still starting (waiting
  // for its database or migrations) ends it cleanly instead of killing it mid-way; one that
  // comes once its jobs are composed is kept and acted on as soon as it is up.
  let stop: ((signal: string) => void) | null = null;
  let composed = false;
  let pending: string | null = null;
  const onSignal = (signal: string): void => {
    if (stop) return stop(signal);
    if (composed) {
      pending ??= signal;
      return;
    }
    console.error(`${signal} before the worker was up: exiting`);
    void Promise.all(servers.map(closeServer)).finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  // Up before the database is looked at: while the worker waits for it (or for its migrations)
  // it is live but not ready, and an orchestrator can tell that from a dead process.
  if (config.ops.workerHealthPort !== 0) {
    const probes = createProbeServer(() => readiness, config.ops.metricsToken);
    const where = `${config.host}:${config.ops.workerHealthPort}`;
    try {
      await listen(probes, config.ops.workerHealthPort, config.host);
      servers.push(probes);
    } catch (err) {
      const text = `WORKER_HEALTH_PORT: cannot listen on ${where} (${(err as Error).message}); give each worker its own port, or 0 for none`;
      // In production a worker without its probes would be restarted as dead: say so now. On a
      // developer's machine a second worker simply runs without them.
      if (config.env === 'production') throw new ConfigError(text);
      console.error(`${text}; running without probes`);
    }
  }
  if (config.ops.metricsPort !== null)
    servers.push(
      await startMetricsServer(config.ops.metricsPort, config.host, config.ops.metricsToken),
    );
  const { app, database } = await composeWorker(config);
  composed = true;
  await app.ready();
  await app.queue.start();
  await app.metrics.jobs.start();
  await app.payments.jobs.start();
  await app.reviews.jobs.start();
  readiness = createReadiness({ database, queue: app.queue, log: app.log });
  // The queue's timer does not hold the process open (an API process has its server for that):
  // this handle does, until a signal stops the worker.
  const keepAlive = setInterval(() => {}, 60_000);
  app.log.info('Tenpo worker is up');
  let stopping = false;
  stop = (signal: string): void => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    readiness?.startDraining();
    app.log.info({ signal }, 'worker stopping');
    clearInterval(keepAlive);
    app.close().then(
      async () => {
        await Promise.all(servers.map(closeServer));
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  if (pending) stop(pending);
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError || err instanceof WorkerNotReadyError ? err.message : err,
  );
  process.exit(1);
});
