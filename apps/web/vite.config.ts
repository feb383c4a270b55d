import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API, the sandbox and uploads are served by `node scripts/start.mjs`; in `vite dev` they are
// proxied to it (port 3000 by default).
const backend = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  // `@/` is src/: features reach lib/ and components/ through it (features never import each other).
  resolve: { alias: { '@': decodeURIComponent(new URL('./src', import.meta.url).pathname) } },
  server: {
    proxy: {
      '/api': backend,
      '/sandbox': backend,
      '/uploads': backend,
      '/images/publisher': backend,
    },
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      treeshake: {
        // The domain package builds its zod schemas at module level, which Rollup must keep as
        // possible side effects; its modules have none, so a chunk that uses none of a module's
        // exports leaves it out, and /login loads no schema and no zod (ADR 0017).
        moduleSideEffects: (id) => !id.includes('/packages/domain/src/'),
      },
    },
  },
});
