import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// The journeys drive the built product (`node scripts/start.mjs`) in Debian's Chromium, on a
// fresh data directory per run (migrated and seeded with the demo accounts on start).
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;

// Playwright loads this file in the runner and again in each worker: only the runner (which
// starts the web server) prepares the data directory; workers inherit its name.
// The directory lives outside the repository so that lint and format never see its files.
if (!process.env.TENPO_E2E_DATA_DIR) {
  const tmp = os.tmpdir();
  // Runs left behind by earlier, finished runs: a run lasts well under 3 hours, and another run
  // going on beside this one (another checkout, another port) keeps its directory.
  const stale = Date.now() - 3 * 60 * 60 * 1000;
  for (const old of fs.readdirSync(tmp)) {
    const started = /^tenpo-e2e-data-(\d+)$/.exec(old)?.[1];
    if (started && Number(started) < stale)
      fs.rmSync(path.join(tmp, old), { recursive: true, force: true });
  }
  const dataDir = path.join(tmp, `tenpo-e2e-data-${Date.now()}`);
  fs.mkdirSync(dataDir, { recursive: true });
  process.env.TENPO_E2E_DATA_DIR = dataDir;
}
const dataDir = process.env.TENPO_E2E_DATA_DIR;

// Debian's old headless shell when it is there (CI installs it): the journeys are CPU-bound on
// two cores, and the shell draws without the full browser's compositor and GPU process (ADR
// 0083: a quarter less time over the a11y and phone journeys). The full browser otherwise, or
// whatever E2E_CHROMIUM names.
const headlessShell = '/usr/bin/chromium-headless-shell';
const browserPath =
  process.env.E2E_CHROMIUM ?? (fs.existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // No retries (ADR 0076): a journey that fails once is a defect to find, not to try again.
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: browserPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // The demo stores' websites (`https://cafe-tenpo.example/…`) resolve to this machine, so
        // a journey can serve a page on a store's own host (knowledge-tag.spec).
        '--host-resolver-rules=MAP *.example 127.0.0.1',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: { browserName: 'chromium' },
      testIgnore: [/payments\.spec\.ts/, /-approval\.spec\.ts/],
    },
    // The approval journeys switch the demo agency's rules on (its replies, its posts): they run
    // after the others, which post and reply for the agency's stores without approval.
    {
      name: 'approval-rules',
      use: { browserName: 'chromium' },
      testMatch: /-approval\.spec\.ts/,
      dependencies: ['chromium'],
    },
    // The payment journey turns expired@ into a paying shop for good: it runs after the others,
    // which still expect its pay-required panels.
    {
      name: 'payments',
      use: { browserName: 'chromium' },
      testMatch: /payments\.spec\.ts/,
      dependencies: ['chromium'],
    },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    cwd: root,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      // The journeys sign in many times a minute from one address.
      RATE_LIMIT_AUTH_PER_MINUTE: '10000',
      // reviews.spec waits for a new Google review to be read: every minute, not every 15.
      REVIEWS_SYNC_MINUTES: '1',
    },
  },
});
