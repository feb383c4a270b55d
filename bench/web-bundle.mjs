#!/usr/bin/env node
// First-load JavaScript of /login (support/first-load.mjs): the module script of
// apps/web/dist/index.html plus the chunks it imports statically (Vite's modulepreload links, and
// their own static imports), each gzipped; the goal is 120 KB. The reference, measured in the
// same run with the same gzip level, is React itself: the production bundles of react and
// react-dom/client from node_modules — the floor that any React app pays.
// Builds nothing: run `npm run build -w @tenpo/web` first.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { FIRST_LOAD_GOAL, firstLoadJs, gzipSize } from './support/first-load.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');
const indexFile = path.join(dist, 'index.html');
if (!fs.existsSync(indexFile)) {
  console.error('apps/web/dist/index.html is missing: run `npm run build -w @tenpo/web` first.');
  process.exit(1);
}

const gz = gzipSize;
const kb = (n) => (n / 1024).toFixed(1);

const { bytes: first, files, html } = firstLoadJs(dist);

// The page's stylesheets block its first paint too; shown apart, the goal is about JavaScript.
// Styles of lazily loaded chunks are not counted: Vite loads them before the chunk runs.
const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)]
  .map((m) => path.join(dist, m[1].replace(/^\//, '')))
  .filter((f) => fs.existsSync(f))
  .reduce((n, f) => n + gz(fs.readFileSync(f)), 0);

const allJs = fs
  .readdirSync(path.join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .reduce((n, f) => n + gz(fs.readFileSync(path.join(dist, 'assets', f))), 0);

const require = createRequire(path.join(root, 'apps/web/package.json'));
const reactFiles = [
  path.join(path.dirname(require.resolve('react/package.json')), 'cjs/react.production.js'),
  path.join(path.dirname(require.resolve('react-dom/package.json')), 'cjs/react-dom.production.js'),
  path.join(
    path.dirname(require.resolve('react-dom/package.json')),
    'cjs/react-dom-client.production.js',
  ),
];
const reference = reactFiles.reduce((n, f) => n + gz(fs.readFileSync(f)), 0);

console.log(
  `web-bundle: /login first-load JS ${kb(first)} KB gzip (${files.length} file(s)) = ` +
    `${(first / reference).toFixed(2)}× react+react-dom production (${kb(reference)} KB gzip); ` +
    `all app JS ${kb(allJs)} KB gzip; first-load CSS ${kb(css)} KB gzip; ` +
    `goal ≤ ${kb(FIRST_LOAD_GOAL)} KB: ${first <= FIRST_LOAD_GOAL ? 'met' : 'missed'}`,
);
