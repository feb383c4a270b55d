import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SBPS_LIVE_ENV } from './helpers';

/** The repository's root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The compiled bundles as a deployment runs them (scripts/build-server.mjs: server, worker,
 * migrate, data and sandbox), built into a folder of the caller's beside apps/api/dist, as deep:
 * they find node_modules and apps/api/assets as the real ones do (dist-*\/ is ignored by git,
 * lint and format). The caller removes it.
 */
export function buildBundles(): string {
  const out = fs.mkdtempSync(path.join(root, 'apps/api/dist-test-'));
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'scripts/build-server.mjs'), '--outdir', out],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`scripts/build-server.mjs failed:\n${r.stderr}`);
  return out;
}

/** Live providers' settings, every one given (values of no real account). */
export const LIVE_PROVIDERS = {
  TENPO_PROVIDERS: 'live',
  GOOGLE_CLIENT_ID: 'g-id',
  GOOGLE_CLIENT_SECRET: 'g-secret',
  FACEBOOK_APP_ID: 'fb-id',
  FACEBOOK_APP_SECRET: 'fb-secret',
  X_CLIENT_ID: 'x-id',
  X_CLIENT_SECRET: 'x-secret',
  ...SBPS_LIVE_ENV,
} as const;
