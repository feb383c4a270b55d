#!/usr/bin/env node
// `npm test`: every suite in turn (lint, types, unit, PostgreSQL, end-to-end, deployment layout),
// stopping at the first that fails, and a table of each suite's wall time at the end, so that a
// slow suite shows in every run (ADR 0067). `--with-node22` adds the unit suites on Node.js 22
// (what CI runs after the README's command).
import { spawnSync } from 'node:child_process';

const suites = ['lint', 'typecheck', 'test:unit', 'test:pg', 'test:e2e', 'test:deploy'];
if (process.argv.includes('--with-node22')) suites.push('test:node22');

const times = [];
const table = () => {
  const total = times.reduce((s, t) => s + t.seconds, 0);
  console.log('\nSuite times');
  for (const t of times)
    console.log(`  ${t.name.padEnd(12)} ${t.seconds.toFixed(0).padStart(5)} s  ${t.status}`);
  console.log(`  ${'total'.padEnd(12)} ${total.toFixed(0).padStart(5)} s`);
};
for (const name of suites) {
  const start = performance.now();
  console.log(`\n=== npm run ${name}`);
  const r = spawnSync('npm', ['run', name], { stdio: 'inherit' });
  const seconds = (performance.now() - start) / 1000;
  const ok = r.status === 0;
  times.push({ name, seconds, status: ok ? 'passed' : `failed (${r.status ?? r.signal})` });
  if (!ok) {
    table();
    process.exit(r.status || 1);
  }
}
table();
