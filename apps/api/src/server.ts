import type http from 'node:http';
import { ConfigError, loadConfig } from './config';
import { composeServer } from './compose';
import { closeServer, startMetricsServer } from './lib/metrics';

/** `npm start`: one process serving /api, /sandbox and the web app, with the job worker. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { app } = await composeServer(config);
  if (config.runWorker) {
    await app.queue.start();
    // The daily metrics schedule, and the backfill of stores that have none (in the background).
    await app.metrics.jobs.start();
    await app.payments.jobs.start();
    await app.reviews.jobs.start();
  }
  let metricsServer: http.Server | null = null;
  if (config.ops.metricsPort !== null)
    metricsServer = await startMetricsServer(
      config.ops.metricsPort,
      config.host,
      config.ops.metricsToken,
    );
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { url: config.publicUrl, database: config.databaseUrl.replace(/\/\/[^@]*@/, '//***@') },
    'Tenpo is up',
  );

  // SIGTERM (ADR 0052): unready at once, so that the load balancer stops sending new work, but
  // serve everything for the drain window while it notices; then close: stop accepting, let the
  // requests in flight finish, and close idle keep-alive connections (Fastify's default).
  let phase: 'up' | 'draining' | 'closing' = 'up';
  let endDrain = (): void => {};
  const close = (): void => {
    phase = 'closing';
    app.close().then(
      async () => {
        if (metricsServer) await closeServer(metricsServer);
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const shutdown = (signal: string): void => {
    if (phase === 'closing') {
      app.log.warn({ signal }, 'second signal while closing: exiting now');
      process.exit(1);
    }
    if (phase === 'draining') {
      app.log.warn({ signal }, 'second signal: ending the drain window now');
      endDrain();
      return;
    }
    phase = 'draining';
    app.readiness.startDraining();
    // Requests and jobs still running at close get 10 s beyond the drain window.
    const force = setTimeout(() => process.exit(1), config.ops.drainMs + 10_000);
    force.unref();
    // Every response from now on tells its client to open a new connection (which the load
    // balancer gives to another instance): none is left idle to be cut when the window ends.
    // Added now, not as a hook: a running process pays nothing for it.
    app.server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) =>
      res.setHeader('connection', 'close'),
    );
    app.log.info({ signal, drain_ms: config.ops.drainMs }, 'draining: unready, still serving');
    const timer = setTimeout(close, config.ops.drainMs);
    endDrain = () => {
      clearTimeout(timer);
      close();
    };
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
