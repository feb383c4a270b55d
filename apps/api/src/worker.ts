import { ConfigError, loadConfig } from './config';
import { composeServer } from './compose';

/**
 * A worker process without HTTP, for running jobs beside API processes
 * (API processes then run with TENPO_WORKER=false).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { app } = await composeServer({ ...config, seedDemo: false });
  await app.ready();
  app.queue.start();
  app.log.info('Tenpo worker is up');
  const stop = (): void => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
