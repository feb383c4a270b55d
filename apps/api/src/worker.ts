import { ConfigError, loadConfig } from './config';
import { WorkerNotReadyError, composeWorker } from './compose';

/**
 * A worker process without HTTP, for running jobs beside API processes (API processes then run
 * with TENPO_WORKER=false). It neither migrates nor serves the web app or the sandbox.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { app } = await composeWorker(config);
  await app.ready();
  await app.queue.start();
  await app.metrics.jobs.start();
  await app.payments.jobs.start();
  // The queue's timer does not hold the process open (an API process has its server for that):
  // this handle does, until a signal stops the worker.
  const keepAlive = setInterval(() => {}, 60_000);
  app.log.info('Tenpo worker is up');
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'worker stopping');
    clearInterval(keepAlive);
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError || err instanceof WorkerNotReadyError ? err.message : err,
  );
  process.exit(1);
});
