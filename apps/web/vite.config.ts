import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { themeCssVariables } from './src/app/css-variables';
import { titlesFromSource } from './src/app/route-titles';
import { jaRoutes } from './src/i18n/ja-routes';

/**
 * Brotli and gzip copies of every text asset beside it (`x.js.br`, `x.js.gz`), made once at
 * build time at the highest levels; the server sends the one the browser accepts (ADR 0071).
 */
const precompress = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'tenpo-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // Asynchronous: the copies are made on libuv's thread pool, several at a time, instead of
    // one after another on the main thread (about 20 s of a CI build, ADR 0067).
    async writeBundle() {
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) =>
            e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
          );
      const brotli = promisify(zlib.brotliCompress);
      const gzip = promisify(zlib.gzip);
      await Promise.all(
        walk(outDir)
          .filter((file) => /\.(js|css|svg|json|txt|webmanifest)$/.test(file))
          .map(async (file) => {
            const data = await fs.promises.readFile(file);
            if (data.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(data, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
              gzip(data, { level: 9 }),
            ]);
            await fs.promises.writeFile(`${file}.br`, br);
            await fs.promises.writeFile(`${file}.gz`, gz);
          }),
      );
    },
  };
};

/**
 * `route-titles.json` beside index.html: each screen's title by path, which the server puts into
 * the loading screen of the page asked for (ADR 0079). routes.tsx names each title in the
 * catalog (`ja.routes.…`); the titles themselves come from i18n/ja-routes.ts (ADR 0084).
 */
const routeTitles = (): Plugin => ({
  name: 'tenpo-route-titles',
  apply: 'build',
  generateBundle() {
    const source = fs.readFileSync(new URL('./src/app/routes.tsx', import.meta.url), 'utf8');
    this.emitFile({
      type: 'asset',
      fileName: 'route-titles.json',
      source: JSON.stringify(titlesFromSource(source, jaRoutes)),
    });
  },
});

/**
 * `virtual:theme-css-variables.css`: the theme's CSS variables, worked out here once instead of
 * by Mantine's provider in the page on each of its renders (ADR 0079's addendum).
 */
const themeCss = (): Plugin => {
  const id = 'virtual:theme-css-variables.css';
  return {
    name: 'tenpo-theme-css-variables',
    resolveId: (source) => (source === id ? id : null),
    load: (source) => (source === id ? themeCssVariables() : null),
  };
};

/** Libraries used by several screens but not by every one: each in its own chunk (ADR 0074). */
const ownLibraryChunks = {
  charts: /node_modules[\\/](chart\.js|@kurkle|react-chartjs-2)[\\/]/,
  forms: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]/,
  uploads: /node_modules[\\/](react-dropzone|file-selector|attr-accept|@mantine[\\/]dropzone)[\\/]/,
};
const inOwnLibraryChunk = (id: string) => Object.values(ownLibraryChunks).some((re) => re.test(id));

// The API, the sandbox and uploads are served by `node scripts/start.mjs`; in `vite dev` they are
// proxied to it (port 3000 by default).
const backend = 'http://127.0.0.1:3000';

/**
 * react-router 7's package exports name only its development build (remix-run/react-router
 * #12532, #14102: "intended to be temporary"), so `vite build` bundled its dev warnings and
 * checks. The build takes the production build the package ships beside it; tests and `vite dev`
 * keep the development one and its warnings (ADR 0085).
 */
const reactRouterProduction = fileURLToPath(
  import.meta.resolve('react-router').replace('/dist/development/', '/dist/production/'),
);

export default defineConfig(({ command }) => ({
  plugins: [react(), themeCss(), routeTitles(), precompress()],
  // `@/` is src/: features reach lib/ and components/ through it (features never import each other).
  resolve: {
    alias: [
      { find: '@', replacement: decodeURIComponent(new URL('./src', import.meta.url).pathname) },
      ...(command === 'build'
        ? [{ find: /^react-router$/, replacement: reactRouterProduction }]
        : []),
    ],
  },
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
    // index.html keeps its <link rel="modulepreload"> for the entry's own imports. A lazily loaded
    // screen's chunks are not preloaded by script: Vite's helper added a <link> per chunk, about
    // 20 ms of main thread per screen on a mid-range phone, the longest part of the router's
    // first task (ADR 0079's addendum); the browser fetches them as the screen's chunk names them.
    // Its CSS is still loaded before it renders.
    // No polyfill: every browser the build targets that lacks modulepreload simply fetches the
    // chunks later, and the polyfill scanned the page's links and watched <head> at startup.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
    },
    rollupOptions: {
      output: {
        // Rolldown's own splitting made a chunk of nearly every shared module: /login fetched 50
        // files, /dashboard over 120 (issue 23 item 5). Groups instead, the first that takes a
        // module keeps it (highest priority first; a module brings its own imports along):
        codeSplitting: {
          groups: [
            // everything the entry imports statically: /login's first render, one file;
            { name: 'first', tags: ['$initial'], priority: 3 },
            // the libraries that two or more lazily loaded chunks share: the signed-in app's;
            {
              name: 'vendor',
              test: (id) => id.includes('node_modules') && !inOwnLibraryChunk(id),
              minShareCount: 2,
              priority: 2,
            },
            // big libraries only some screens use stay out of it, one chunk each.
            ...Object.entries(ownLibraryChunks).map(([name, test]) => ({
              name,
              test,
              priority: 1,
            })),
          ],
        },
      },
      treeshake: {
        // The domain package builds its zod schemas at module level, which Rollup must keep as
        // possible side effects; its modules have none, so a chunk that uses none of a module's
        // exports leaves it out, and /login loads no schema and no zod (ADR 0017).
        moduleSideEffects: (id) => !id.includes('/packages/domain/src/'),
      },
    },
  },
}));
