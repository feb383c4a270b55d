#!/usr/bin/env node
// Lighthouse performance of /login, /dashboard and /posts as a phone sees them on a cold load
// (issue 23 item 5): Lighthouse's default mobile run (Moto G Power, simulated slow 4G, CPU × 4),
// in Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH), against the built product started
// as `npm start` runs it, on a fresh data folder seeded with the demo accounts.
//
// The reference, measured in the same run on the same server, data and browser, is the same
// page's desktop score (Lighthouse's desktop preset: no CPU slow-down, a fast wired network):
// the mobile figure minus what the phone's network and CPU cost. Both move together when the
// machine is busy (the simulation scales the CPU time it observed), so a low desktop score says
// "busy machine", a low mobile score beside a high desktop one says "too much for a phone".
// Lighthouse's own CPU benchmark of this machine (benchmarkIndex) is printed with it, and so is
// Lighthouse's own warning when that index is at or below 1,000 (its SLOW_CPU_BENCHMARK_INDEX_
// THRESHOLD): the × 4 slow-down then models a phone slower than Lighthouse's reference, and the
// mobile score is not comparable (lighthouse/docs/throttling.md, "CPU throttling").
//
// /dashboard and /posts are loaded signed in as the demo shop: the browser signs in once through
// /login's form, keeps its local storage (the session), and its HTTP cache is emptied before
// every run, so each load is cold. Also prints /login's first-load JS (gzip) against 120 KB.
// Builds nothing: run `npm run build` first. LIGHTHOUSE_RUNS=n takes the median of n runs.
// (The figures move with the machine's load: run it on a quiet machine to compare two builds.)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { FIRST_LOAD_GOAL, firstLoadJs } from './support/first-load.mjs';
import { freePort } from './support/free-port.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'apps/api/dist/server.mjs');
const dist = path.join(root, 'apps/web/dist');
for (const [f, what] of [
  [server, 'apps/api/dist/server.mjs'],
  [path.join(dist, 'index.html'), 'apps/web/dist/index.html'],
]) {
  if (!fs.existsSync(f)) {
    console.error(`${what} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
}
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.error(
    `lighthouse: no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH).`,
  );
  process.exit(1);
}
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
// LIGHTHOUSE_REPORT_DIR=dir keeps each run's full report (JSON; open it in the Lighthouse viewer).
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const GOAL_SCORE = 90;
const EMAIL = 'shop@tenpo.example';
const PASSWORD = 'tenpo-demo-1';

// The product, as `npm start` runs it (the compiled server and its in-process worker).
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-bench-lighthouse-'));
const child = spawn(process.execPath, ['--enable-source-maps', server], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
  },
});
const exited = new Promise((resolve) => child.on('exit', resolve));
const started = performance.now();
for (;;) {
  const ok = await fetch(`${base}/api/health`)
    .then((r) => r.status === 200)
    .catch(() => false);
  if (ok) break;
  if (performance.now() - started > 120_000) throw new Error('the server did not answer');
  await new Promise((r) => setTimeout(r, 100));
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  defaultViewport: null,
});

// One tab for everything: Lighthouse drives it, and between runs its HTTP cache is emptied.
const page = (await browser.pages())[0] ?? (await browser.newPage());
const cdp = await page.createCDPSession();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

class LighthouseRunError extends Error {}

/** One cold Lighthouse load of `url`; `keepStorage` keeps the session in local storage. */
async function audit(url, config, keepStorage) {
  // Lighthouse empties the cache itself unless it is asked to keep storage; then this does.
  await cdp.send('Network.clearBrowserCache');
  const result = await lighthouse(
    url,
    {
      logLevel: 'error',
      output: 'json',
      onlyCategories: ['performance'],
      disableStorageReset: keepStorage,
    },
    config,
    page,
  );
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  if (REPORT_DIR) {
    const name = `${new URL(url).pathname.slice(1)}-${config ? 'desktop' : 'mobile'}-${Date.now()}.json`;
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    fs.writeFileSync(path.join(REPORT_DIR, name), JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new LighthouseRunError(`${url}: ${lhr.runtimeError.code}`);
  if (lhr.finalDisplayedUrl !== url) {
    throw new Error(`${url} ended on ${lhr.finalDisplayedUrl} (not signed in?)`);
  }
  return lhr;
}

/** Runs in which Lighthouse warned that this machine's CPU is slower than it expects. */
let slowHostRuns = 0;
let allRuns = 0;

const num = (lhr, id) => lhr.audits[id]?.numericValue ?? NaN;
const summary = (lhr) => {
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  allRuns += 1;
  if ((lhr.runWarnings ?? []).some((w) => /slower CPU than/.test(w))) slowHostRuns += 1;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: num(lhr, 'first-contentful-paint'),
    lcp: num(lhr, 'largest-contentful-paint'),
    tbt: num(lhr, 'total-blocking-time'),
    si: num(lhr, 'speed-index'),
    cls: num(lhr, 'cumulative-layout-shift'),
    requests: requests.length,
    scripts: scripts.length,
    jsKb: scripts.reduce((n, r) => n + (r.transferSize ?? 0), 0) / 1024,
    unusedJsKb:
      num(lhr, 'unused-javascript') >= 0
        ? (lhr.audits['unused-javascript']?.details?.overallSavingsBytes ?? 0) / 1024
        : 0,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? NaN,
  };
};

/** The median run (by score) of `RUNS` for one page and one config. */
async function measure(route, config, keepStorage) {
  const runs = [];
  for (let i = 0; i < RUNS; i += 1) {
    // On a busy machine Lighthouse now and then loses its trace (NO_NAVSTART, NO_FCP): such a
    // run has no figures, and is made again, twice at most.
    for (let attempt = 1; ; attempt += 1) {
      try {
        runs.push(summary(await audit(`${base}${route}`, config, keepStorage)));
        break;
      } catch (e) {
        if (!(e instanceof LighthouseRunError) || attempt === 3) throw e;
        console.error(`lighthouse: ${e.message}; again`);
      }
    }
  }
  const m = median(runs.map((r) => r.score));
  return runs.find((r) => r.score === m);
}

const results = [];
try {
  // /login first, signed out: Lighthouse's own storage reset gives the first visit.
  results.push({
    route: '/login',
    mobile: await measure('/login', undefined, false),
    desktop: await measure('/login', desktopConfig, false),
  });

  // Sign in once through the form, as a user does; the session stays in local storage.
  await page.goto(`${base}/login`, { waitUntil: 'networkidle0' });
  await page.type('input[name="email"]', EMAIL);
  await page.type('input[name="password"]', PASSWORD);
  await Promise.all([
    page.waitForFunction(() => globalThis.location.pathname === '/dashboard', { timeout: 60_000 }),
    page.click('button[type="submit"]'),
  ]);

  for (const route of ['/dashboard', '/posts']) {
    results.push({
      route,
      mobile: await measure(route, undefined, true),
      desktop: await measure(route, desktopConfig, true),
    });
  }
} finally {
  await browser.close();
  child.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const ms = (n) => `${(n / 1000).toFixed(1)} s`.padStart(7);
const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
console.log(
  `lighthouse ${when}, median of ${RUNS} run(s), ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; mobile (simulated slow 4G, CPU × 4) against desktop, same run:`,
);
for (const { route, mobile: m, desktop: d } of results) {
  console.log(
    `  ${route.padEnd(10)} mobile ${String(m.score).padStart(3)} / desktop ${String(d.score).padStart(3)}` +
      `  (mobile: FCP ${ms(m.fcp)}, LCP ${ms(m.lcp)}, TBT ${Math.round(m.tbt)} ms, SI ${ms(m.si)}, ` +
      `CLS ${m.cls.toFixed(3)}; ${m.requests} requests, ${m.scripts} scripts ${m.jsKb.toFixed(1)} KB, ` +
      `unused JS ${m.unusedJsKb.toFixed(1)} KB; benchmarkIndex ${Math.round(m.benchmarkIndex)})`,
  );
}
const first = firstLoadJs(dist);
const kb = (n) => (n / 1024).toFixed(1);
console.log(
  `  /login first-load JS ${kb(first.bytes)} KB gzip (${first.files.length} file(s)) against the ` +
    `goal of ${kb(FIRST_LOAD_GOAL)} KB: ${first.bytes <= FIRST_LOAD_GOAL ? 'met' : 'missed'}; ` +
    `mobile scores ≥ ${GOAL_SCORE}: ${results.every((r) => r.mobile.score >= GOAL_SCORE) ? 'met' : 'missed'}`,
);
if (slowHostRuns > 0) {
  console.log(
    `  Lighthouse warned of a slower CPU than it expects (benchmarkIndex ≤ 1,000) in ${slowHostRuns} ` +
      `of ${allRuns} runs: those mobile scores overstate a phone's CPU time; compare builds on a quiet, faster machine.`,
  );
}
