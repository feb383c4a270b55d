#!/usr/bin/env node
// First-load JavaScript of /login: the module script of apps/web/dist/index.html plus the
// chunks it imports statically (Vite's modulepreload links, and their own static imports), each
// gzipped. The reference, measured in the same run with the same gzip level, is React itself:
// the production bundles of react and react-dom/client from node_modules — the floor that any
// React app pays. Builds nothing: run `npm run build -w @tenpo/web` first.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');
const indexFile = path.join(dist, 'index.html');
if (!fs.existsSync(indexFile)) {
  console.error('apps/web/dist/index.html is missing: run `npm run build -w @tenpo/web` first.');
  process.exit(1);
}

const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (n) => (n / 1024).toFixed(1);

const html = fs.readFileSync(indexFile, 'utf8');
const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
const preload = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
  (m) => m[1],
);

// Follow static `import … from "./x.js"` / `import "./x.js"` of the entry chunks (not `import()`).
const seen = new Set();
const queue = [...entry, ...preload].map((u) => path.join(dist, u.replace(/^\//, '')));
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file) || !fs.existsSync(file)) continue;
  seen.add(file);
  const src = fs.readFileSync(file, 'utf8');
  for (const m of src.matchAll(
    /(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g,
  )) {
    queue.push(path.resolve(path.dirname(file), m[1]));
  }
}
const files = [...seen];
const first = files.reduce((n, f) => n + gz(fs.readFileSync(f)), 0);

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
    `all app JS ${kb(allJs)} KB gzip; first-load CSS ${kb(css)} KB gzip`,
);
