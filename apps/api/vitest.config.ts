import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // The API files mostly wait (sockets, child processes, timers, the database): four at a time
    // keep two cores busy. A worker runs file after file without a fresh module graph: the app is
    // built by factories, its files share no module state, and importing it again for each of 80
    // files cost a third of the suite's CPU (ADR 0076). VITEST_MAX_WORKERS overrides the four.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 4),
    isolate: false,
  },
});
