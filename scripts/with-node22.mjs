#!/usr/bin/env node
// `npm run test:node22`: runs a command under Node.js 22, the older of the two LTS lines Tenpo
// supports, while `npm install` puts Node.js 24 in node_modules/.bin for everything else.
// Node 22 comes from the npm registry like 24 does (the package node-<os>-<cpu>), pinned here,
// into node_modules/.cache/node22 on first use; its bin folder then goes first on PATH.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE22 = '22.23.3';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = `node-${process.platform}-${process.arch}`;
const prefix = path.join(root, 'node_modules/.cache/node22');
const bin = path.join(prefix, 'node_modules', pkg, 'bin');

const version = () => {
  const r = spawnSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};

if (version() !== `v${NODE22}`) {
  console.log(`Installing Node.js ${NODE22} (${pkg}) into ${path.relative(root, prefix)}…`);
  fs.mkdirSync(prefix, { recursive: true });
  const r = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      `${pkg}@${NODE22}`,
    ],
    { stdio: 'inherit' },
  );
  if (r.status !== 0 || version() !== `v${NODE22}`) {
    console.error(`Could not install ${pkg}@${NODE22} from the npm registry.`);
    process.exit(r.status || 1);
  }
}

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: node scripts/with-node22.mjs <command> [args…]');
  process.exit(2);
}
const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
console.log(`Running under ${version()}: ${[cmd, ...args].join(' ')}`);
const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
process.exit(r.status ?? 1);
