// /login's first-load JavaScript, shared by web-bundle.mjs and lighthouse.mjs: the module script
// of apps/web/dist/index.html plus the chunks it imports statically (Vite's modulepreload links,
// and their own static imports), each gzipped at level 9. Builds nothing.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** The goal of issue 7 §4 and issue 23 item 5, in bytes of gzip. */
export const FIRST_LOAD_GOAL = 120 * 1024;

export const gzipSize = (buf) => zlib.gzipSync(buf, { level: 9 }).length;

/** `{ bytes, files, html }` for the built app in `dist`, or null when it is not built. */
export function firstLoadJs(dist) {
  const indexFile = path.join(dist, 'index.html');
  if (!fs.existsSync(indexFile)) return null;
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
  const bytes = files.reduce((n, f) => n + gzipSize(fs.readFileSync(f)), 0);
  return { bytes, files, html };
}
