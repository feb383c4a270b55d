#!/usr/bin/env node
// `npm test`: every suite in turn (lint and types side by side, then unit, PostgreSQL,
// end-to-end, deployment layout), stopping at the first that fails, and a table of each suite's
// wall time at the end, so that a slow suite shows in every run (ADR 0067, 0076).
// `--with-node22` adds the unit suites' Node.js 22 run (what CI runs after the README's command).
import { spawn } from 'node:child_process';

/** Suites of one step run side by side (each mostly one core); steps run one after another. */
const steps = [['lint', 'typecheck'], ['test:unit'], ['test:pg'], ['test:e2e'], ['test:deploy']];
if (process.argv.includes('--with-node22')) steps.push(['test:node22']);

/** Runs `npm run name`; alone it prints as it goes, beside others its output comes at its end. */
const run = (name, alone) =>
  new Promise((resolve) => {
    const start = performance.now();
    if (alone) console.log(`\n=== npm run ${name}`);
    const child = spawn('npm', ['run', name], { stdio: alone ? 'inherit' : 'pipe' });
    const out = [];
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr?.on('data', (d) => out.push(d));
    child.on('close', (code, signal) => {
      if (!alone) {
        console.log(`\n=== npm run ${name}`);
        process.stdout.write(Buffer.concat(out));
      }
      const seconds = (performance.now() - start) / 1000;
      resolve({
        name,
        seconds,
        ok: code === 0,
        status: code === 0 ? 'passed' : `failed (${code ?? signal})`,
      });
    });
  });

const times = [];
const start = performance.now();
const table = () => {
  const wall = (performance.now() - start) / 1000;
  console.log('\nSuite times');
  for (const t of times)
    console.log(`  ${t.name.padEnd(12)} ${t.seconds.toFixed(0).padStart(5)} s  ${t.status}`);
  console.log(`  ${'wall'.padEnd(12)} ${wall.toFixed(0).padStart(5)} s`);
};
for (const step of steps) {
  const results = await Promise.all(step.map((name) => run(name, step.length === 1)));
  times.push(...results);
  if (results.some((r) => !r.ok)) {
    table();
    process.exit(1);
  }
}
table();
