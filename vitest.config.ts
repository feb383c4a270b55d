import { defineConfig } from 'vitest/config';

// One `vitest run` at the root runs every package's suite (CONVENTIONS: one npm test).
export default defineConfig({
  test: {
    projects: ['packages/domain', 'apps/sandbox', 'apps/api', 'apps/web'],
  },
});
