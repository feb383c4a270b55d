import { ConfigError, loadConfig } from './config';
import { composeServer } from './compose';

/** `npm start`: one process serving /api, /sandbox and the web app, with the job worker. */
async function main(): Promise<void> {
  const config = loadConfig();
  const { app } = await composeServer(config);
  if (config.runWorker) {
    await app.queue.start();
    // The daily metrics schedule, and the backfill of stores that have none (in the background).
    await app.metrics.jobs.start();
    await app.payments.jobs.start();
  }
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { url: config.publicUrl, database: config.databaseUrl.replace(/\/\/[^@]*@/, '//***@') },
    'Tenpo is up',
  );

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking requests, let the running ones and the current job tick finish, then exit.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
