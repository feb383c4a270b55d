import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One `vitest run` at the root runs every package's suite (CONVENTIONS: one npm test).
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on CI's two. Most API test
    // files wait on sockets, child processes and timers rather than the CPU, so every core gets
    // a worker (ADR 0067); VITEST_MAX_WORKERS overrides it.
    maxWorkers: Math.max(2, os.availableParallelism()),
    projects: ['packages/domain', 'apps/sandbox', 'apps/api', 'apps/web'],
  },
});
