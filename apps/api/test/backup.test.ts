import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../src/db/kysely';
import { createBackup, restoreBackup, type Install } from '../src/db/tools/backup';
import { ToolError } from '../src/db/tools/sqlite-file';
import { TarWriter } from '../src/db/tools/tar';
import { filesOf, seedInstall, sqliteRows } from './data-install';
import { buildBundles } from './bundle';
import { pgScratch } from './pg-scratch';

// `npm run backup` / `restore` (ADR 0056): a backup taken while a connection keeps writing
// restores into a new DATA_DIR with the same rows, upload bytes and secret key; a damaged archive
// changes nothing.
let dir: string;
let source: string;
let handle: DbHandle;
let archive: string;

const installAt = (dataDir: string): Install => ({
  dataDir,
  sqliteFile: path.join(dataDir, 'tenpo.sqlite'),
  secretKeyFromEnv: false,
  storage: { driver: 'local' },
});
const quiet = () => {};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-backup-'));
  source = path.join(dir, 'source');
  handle = await seedInstall(source);
  // Some 10 MB of history: enough pages that a backup copied in small steps would be started
  // over by the writes below for as long as they go on (ADR 0056).
  const bulk = new Sqlite(path.join(source, 'tenpo.sqlite'));
  const add = bulk.prepare(
    "insert into audit_log (at, entity, action, summary, after) values (?, 'store', 'update', ?, ?)",
  );
  bulk.transaction(() => {
    for (let i = 0; i < 60_000; i++)
      add.run(new Date().toISOString(), `履歴 ${i}`, JSON.stringify({ name: `店舗 ${i}` }));
  })();
  bulk.close();
  archive = path.join(dir, 'out', 'b.tar.gz');
  // Writes go on during the backup, as a running server's would.
  let n = 0;
  let writing = true;
  const writer = (async () => {
    while (writing) {
      n += 1;
      await handle.db
        .insertInto('audit_log')
        .values({
          at: new Date().toISOString(),
          entity: 'store',
          action: 'update',
          summary: `w${n}`,
        })
        .execute();
      await new Promise((r) => setImmediate(r));
    }
  })();
  const lines: string[] = [];
  try {
    await createBackup(installAt(source), { out: archive, log: (l) => lines.push(l) });
  } finally {
    writing = false;
    await writer;
  }
  expect(lines[0]).toMatch(/^Wrote .*b\.tar\.gz \(\d+\.\d MiB\)\.$/);
  expect(n).toBeGreaterThan(1);
}, 60_000);

afterAll(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('restores the rows, the uploads and the secret key into a new DATA_DIR', async () => {
    const target = path.join(dir, 'restored');
    await restoreBackup(installAt(target), { archive, force: false, log: quiet });

    const before = sqliteRows(path.join(source, 'tenpo.sqlite'));
    const after = sqliteRows(path.join(target, 'tenpo.sqlite'));
    // The backup is one moment of the database: every table as it is now, but the audit log
    // the writer kept adding to, which holds the rows up to that moment and none after.
    const { audit_log: logBefore = [], ...restBefore } = before;
    const { audit_log: logAfter = [], ...restAfter } = after;
    expect(restAfter).toEqual(restBefore);
    expect(Object.keys(restAfter).length).toBeGreaterThan(25);
    expect(after.posts).toHaveLength(2);
    expect(
      after.jobs?.filter((j) => (j as { status: string }).status === 'queued').length,
    ).toBeGreaterThan(3);
    expect(logAfter.length).toBeGreaterThan(0);
    expect(logAfter).toEqual(logBefore.slice(0, logAfter.length));

    const uploads = filesOf(path.join(source, 'uploads'));
    expect(uploads.size).toBe(6);
    expect(filesOf(path.join(target, 'uploads'))).toEqual(uploads);
    expect(fs.readFileSync(path.join(target, 'secret.key'))).toEqual(
      fs.readFileSync(path.join(source, 'secret.key')),
    );
    expect(fs.statSync(path.join(target, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(target, 'tenpo.sqlite')).mode & 0o077).toBe(0);
  });

  it('refuses a non-empty DATA_DIR without --force, and one whose database is open', async () => {
    await expect(
      restoreBackup(installAt(source), { archive, force: false, log: quiet }),
    ).rejects.toThrow(/is not empty .* --force/);
    // `handle` is the running server's connection.
    await expect(
      restoreBackup(installAt(source), { archive, force: true, log: quiet }),
    ).rejects.toThrow(/open in another process/);
  });

  it('replaces the database, uploads and key of a stopped install with --force', async () => {
    const target = path.join(dir, 'forced');
    fs.mkdirSync(path.join(target, 'uploads'), { recursive: true });
    fs.writeFileSync(path.join(target, 'uploads', 'stale.png'), 'old');
    fs.writeFileSync(path.join(target, 'tenpo.sqlite-wal'), 'stale');
    fs.writeFileSync(path.join(target, 'notes.txt'), 'kept');
    await restoreBackup(installAt(target), { archive, force: true, log: quiet });
    expect(fs.existsSync(path.join(target, 'uploads', 'stale.png'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'tenpo.sqlite-wal'))).toBe(false);
    expect(fs.readFileSync(path.join(target, 'notes.txt'), 'utf8')).toBe('kept');
    expect(filesOf(path.join(target, 'uploads')).size).toBe(6);
  });

  it('refuses an archive with a flipped byte, and leaves the target untouched', async () => {
    const bytes = fs.readFileSync(archive);
    const content = gunzipSync(bytes);
    // A flipped bit in a deflate block's table for a symbol it never uses changes nothing that
    // is read back (gzip's CRC then matches too): flip the first byte from the middle that does.
    let bad = Buffer.from(bytes);
    for (let at = Math.floor(bytes.length / 2); at < bytes.length; at += 1) {
      bad = Buffer.from(bytes);
      bad[at] = (bad[at] as number) ^ 0x01;
      let same: boolean;
      try {
        same = gunzipSync(bad).equals(content);
      } catch {
        break; // gzip itself refuses it
      }
      if (!same) break;
    }
    const badFile = path.join(dir, 'flipped.tar.gz');
    fs.writeFileSync(badFile, bad);
    const target = path.join(dir, 'not-restored');
    const err = await restoreBackup(installAt(target), {
      archive: badFile,
      force: false,
      log: quiet,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as Error).message).toMatch(/damaged/);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.readdirSync(dir).filter((f) => f.includes('.restore-'))).toEqual([]);
  });

  it('refuses a file whose bytes differ from the manifest even when the gzip is whole', async () => {
    // Changed inside the tar and compressed again: only the manifest's SHA-256 can tell.
    const tar = gunzipSync(fs.readFileSync(archive));
    const at = tar.indexOf(Buffer.from('{"contentType":"image/jpeg"}'));
    expect(at).toBeGreaterThan(0);
    tar.write('{"contentType":"IMAGE/jpeg"}', at, 'latin1');
    const badFile = path.join(dir, 'retouched.tar.gz');
    fs.writeFileSync(badFile, gzipSync(tar));
    const target = path.join(dir, 'not-restored-2');
    await expect(
      restoreBackup(installAt(target), { archive: badFile, force: false, log: quiet }),
    ).rejects.toThrow(/uploads\/media\/.*\.json does not match the SHA-256 in its manifest/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses an entry that would land outside DATA_DIR', async () => {
    const file = path.join(dir, 'escape.tar.gz');
    const gzip = createGzip();
    const done = pipeline(gzip, fs.createWriteStream(file));
    const tar = new TarWriter(gzip);
    const evil = await tar.addBuffer('uploads/../../escaped.txt', Buffer.from('x'));
    await tar.addBuffer('manifest.json', Buffer.from(JSON.stringify({ files: [evil] })));
    await tar.finish();
    await done;
    const target = path.join(dir, 'escape', 'data');
    await expect(
      restoreBackup(installAt(target), { archive: file, force: false, log: quiet }),
    ).rejects.toThrow(/holds uploads\/\.\.\/\.\.\/escaped\.txt, which is not Tenpo's/);
    expect(fs.existsSync(path.join(dir, 'escape', 'escaped.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'escaped.txt'))).toBe(false);
  });

  it('is an archive tar itself opens', () => {
    const r = spawnSync('tar', ['tzf', archive], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const names = r.stdout.trim().split('\n');
    expect(names[0]).toBe('tenpo.sqlite');
    expect(names).toContain('secret.key');
    expect(names.at(-1)).toBe('manifest.json');
    // The long name went into a pax header, which tar reads back whole.
    expect(names.some((n) => n.length > 100 && n.startsWith('uploads/media/deep-'))).toBe(true);
  });
});

describe('the data commands from the production bundle', () => {
  let out: string;
  let bundle: string;
  beforeAll(() => {
    // Beside apps/api/dist, as deep, as in production-start.test.ts (dist-*/ is ignored).
    out = buildBundles();
    bundle = path.join(out, 'data.mjs');
  }, 60_000);
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [bundle, ...args], {
      encoding: 'utf8',
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...env },
    });

  it('backs up and restores with node data.mjs, as a deployment without dev dependencies runs it', () => {
    const file = path.join(dir, 'cli.tar.gz');
    const b = run(['backup', '--out', file], { DATA_DIR: source });
    expect(b.status, b.stderr).toBe(0);
    expect(b.stdout).toContain(`Wrote ${file} (`);
    const target = path.join(dir, 'cli-restored');
    const r = run(['backup', '--restore', file], { DATA_DIR: target });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Restored .* into .*cli-restored: database, 6 uploads, secret key\./);
    const again = run(['restore', file], { DATA_DIR: target });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/is not empty/);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'moves a restored install to PostgreSQL with node data.mjs',
    async () => {
      const scratch = await pgScratch();
      const c = new pg.Client({ connectionString: scratch.databaseUrl });
      await c.connect();
      try {
        const file = path.join(dir, 'to-pg.tar.gz');
        expect(run(['backup', '--out', file], { DATA_DIR: source }).status).toBe(0);
        const stopped = path.join(dir, 'to-pg');
        expect(run(['restore', file], { DATA_DIR: stopped }).status).toBe(0);
        const m = run(['migrate-to-postgres'], { DATA_DIR: stopped, DATABASE_URL: scratch.url });
        expect(m.status, m.stderr).toBe(0);
        expect(m.stdout).toMatch(/^ {2}users +25 rows$/m);
        expect(m.stdout).toMatch(/Copied \d+ rows in \d+ tables/);
        const { rows } = await c.query(
          `select count(*)::int as n from ${scratch.schema}.audit_log`,
        );
        expect(rows[0].n).toBeGreaterThan(60_000);
      } finally {
        await c.end();
        await scratch.drop();
      }
    },
  );

  it('names pg_dump on PostgreSQL instead of writing an archive', () => {
    const r = run(['backup'], {
      DATA_DIR: path.join(dir, 'pg'),
      DATABASE_URL: 'postgres://tenpo@db.example:5432/tenpo?schema=shop',
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /pg_dump --format=custom --schema=shop --file=tenpo-\d{4}-\d\d-\d\d\.dump 'postgres:\/\/tenpo@db\.example:5432\/tenpo'/,
    );
    expect(fs.existsSync(path.join(dir, 'pg'))).toBe(false);
  });
});
