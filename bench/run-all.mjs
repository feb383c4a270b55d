#!/usr/bin/env node
// Runs every bench script in this folder, one after another (not in support/, which holds what
// they start, such as delivery.ts's sandbox process).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const f of fs.readdirSync(here).sort()) {
  if (f === 'run-all.mjs' || !/\.(ts|mjs)$/.test(f)) continue;
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, f)], {
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
