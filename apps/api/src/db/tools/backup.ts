import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, createGunzip } from 'node:zlib';
import Sqlite from 'better-sqlite3';
import { fileSink, readTar, TarWriter, type Entry } from './tar';
import { SQLITE_SIDE_FILES, sqliteInUse, ToolError } from './sqlite-file';
import { tenpoVersion } from './version';

/** Names inside the archive. */
const DB_ENTRY = 'tenpo.sqlite';
const KEY_ENTRY = 'secret.key';
const UPLOADS = 'uploads';
const MANIFEST = 'manifest.json';

export type Manifest = {
  format: 'tenpo-backup';
  formatVersion: 1;
  tenpoVersion: string;
  createdAt: string;
  database: { dialect: 'sqlite'; file: string; migrations: string[] };
  uploads: { included: boolean; count: number; note?: string };
  secretKey: { included: boolean; note?: string };
  /** Every file of the archive but this manifest, which comes last. */
  files: Entry[];
};

export type Install = {
  dataDir: string;
  /** The SQLite database file (DATA_DIR/tenpo.sqlite unless DATABASE_URL names another). */
  sqliteFile: string;
  /** TENPO_SECRET_KEY is set: the key comes from the environment, not DATA_DIR/secret.key. */
  secretKeyFromEnv: boolean;
  storage: { driver: 'local' } | { driver: 's3'; bucket: string | null };
};

type Log = (line: string) => void;

const stampOf = (d: Date): string => d.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

/** Files under `dir`, relative, skipping a local put's hidden temporary files (`.x.<hex>.tmp`). */
async function listFiles(dir: string, rel = ''): Promise<string[]> {
  let items: fs.Dirent[];
  try {
    items = await fsp.readdir(path.join(dir, rel), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: string[] = [];
  for (const item of items.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = rel ? `${rel}/${item.name}` : item.name;
    if (item.isDirectory()) out.push(...(await listFiles(dir, p)));
    else if (item.isFile() && !/^\..*\.[0-9a-f]{12}\.tmp$/.test(item.name)) out.push(p);
  }
  return out;
}

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/**
 * `npm run backup`: one tar.gz with the database (SQLite's online backup, consistent while the
 * server writes), then the uploads and the secret key, then a manifest with every file's SHA-256.
 * The database is copied first: a file a row names was put before the row was written, so every
 * upload the copied rows name is on disk when the uploads are read afterwards.
 */
export async function createBackup(
  install: Install,
  options: { out?: string; now?: Date; log: Log },
): Promise<{ file: string; size: number; manifest: Manifest }> {
  const { log } = options;
  if (!fs.existsSync(install.sqliteFile))
    throw new ToolError(`There is no database at ${install.sqliteFile} (DATA_DIR / DATABASE_URL).`);
  const now = options.now ?? new Date();
  const out = path.resolve(options.out ?? path.join('backups', `tenpo-${stampOf(now)}.tar.gz`));
  await fsp.mkdir(path.dirname(out), { recursive: true });
  if (fs.existsSync(out)) throw new ToolError(`${out} exists already; choose another --out.`);

  const work = await fsp.mkdtemp(path.join(path.dirname(out), '.tenpo-backup-'));
  let written = false;
  try {
    const dbCopy = path.join(work, DB_ENTRY);
    const source = new Sqlite(install.sqliteFile, { readonly: true, fileMustExist: true });
    try {
      // After the first step, the rest in one: in WAL mode one step is one read transaction,
      // a consistent moment that does not block the server's writes. In small steps, each
      // write of the server's between two of them would start the copy over.
      await source.backup(dbCopy, { progress: () => 1 << 30 });
    } finally {
      source.close();
    }
    const copy = new Sqlite(dbCopy, { readonly: true });
    let migrations: string[];
    try {
      migrations = (
        copy.prepare('select name from kysely_migration order by name').pluck().all() as string[]
      ).slice();
    } finally {
      copy.close();
    }

    // The archive holds the secret key: only its owner may read it.
    const fileStream = fs.createWriteStream(out, { flags: 'wx', mode: 0o600 });
    const gzip = createGzip();
    const done = pipeline(gzip, fileStream);
    written = true;
    const tar = new TarWriter(gzip);
    const files: Entry[] = [await tar.addFile(DB_ENTRY, dbCopy)];

    const keyFile = path.join(install.dataDir, 'secret.key');
    const secretKey: Manifest['secretKey'] = { included: false };
    if (fs.existsSync(keyFile)) {
      files.push(await tar.addFile(KEY_ENTRY, keyFile));
      secretKey.included = true;
      if (install.secretKeyFromEnv)
        secretKey.note =
          'TENPO_SECRET_KEY is set and is the key in use; DATA_DIR/secret.key is included as found.';
    } else if (install.secretKeyFromEnv) {
      secretKey.note =
        'TENPO_SECRET_KEY is given by the environment and is not in this archive: keep it with the archive, or the provider tokens in it cannot be read.';
    } else secretKey.note = 'DATA_DIR/secret.key was not found.';

    const uploads: Manifest['uploads'] = { included: false, count: 0 };
    if (install.storage.driver === 'local') {
      const root = path.join(install.dataDir, UPLOADS);
      for (const rel of await listFiles(root)) {
        try {
          files.push(await tar.addFile(`${UPLOADS}/${rel}`, path.join(root, rel)));
          uploads.count += 1;
        } catch (err) {
          // Deleted between the listing and the read: its row went before it (or it never had one).
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      uploads.included = true;
    } else {
      uploads.note = `STORAGE_DRIVER=s3: the media in the bucket${install.storage.bucket ? ` ${install.storage.bucket}` : ''} (S3_BUCKET) are not included; back the bucket up with the storage provider's tools.`;
    }

    const manifest: Manifest = {
      format: 'tenpo-backup',
      formatVersion: 1,
      tenpoVersion: tenpoVersion(),
      createdAt: now.toISOString(),
      database: { dialect: 'sqlite', file: DB_ENTRY, migrations },
      uploads,
      secretKey,
      files,
    };
    await tar.addBuffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2) + '\n'));
    await tar.finish();
    await done;
    const size = (await fsp.stat(out)).size;
    log(`Wrote ${out} (${mib(size)}).`);
    log(
      `  database: ${migrations.length} migrations, ${mib(files[0]?.size ?? 0)}; uploads: ${uploads.included ? `${uploads.count} files` : 'not included'}; secret key: ${secretKey.included ? 'included' : 'not included'}`,
    );
    if (uploads.note) log(`  ${uploads.note}`);
    if (secretKey.note) log(`  ${secretKey.note}`);
    return { file: out, size, manifest };
  } catch (err) {
    if (written) await fsp.rm(out, { force: true });
    throw err;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

/** An archive path that stays inside the restore: one of ours, no `..`, not absolute. */
const safeEntry = (p: string): boolean =>
  (p === DB_ENTRY || p === KEY_ENTRY || p === MANIFEST || p.startsWith(`${UPLOADS}/`)) &&
  !p.split('/').some((s) => s === '..' || s === '' || s === '.');

const isEmptyDir = (dir: string): boolean =>
  !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

/** Moves a file or folder, copying when it crosses file systems. */
async function move(from: string, to: string): Promise<void> {
  await fsp.mkdir(path.dirname(to), { recursive: true });
  try {
    await fsp.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fsp.cp(from, to, { recursive: true });
    await fsp.rm(from, { recursive: true, force: true });
  }
}

/**
 * `npm run restore -- <archive>`: unpacks into a folder beside DATA_DIR, checks every file
 * against the manifest's SHA-256 (and the database with SQLite's quick check), and only then
 * moves the database, the uploads and the key into place. A damaged archive changes nothing.
 */
export async function restoreBackup(
  install: Install,
  options: { archive: string; force: boolean; log: Log },
): Promise<Manifest> {
  const { log } = options;
  const archive = path.resolve(options.archive);
  if (!fs.existsSync(archive)) throw new ToolError(`There is no archive at ${archive}.`);
  const dataDir = path.resolve(install.dataDir);
  const occupied = !isEmptyDir(dataDir) || fs.existsSync(install.sqliteFile);
  if (occupied && !options.force)
    throw new ToolError(
      `DATA_DIR ${dataDir} is not empty (or the database ${install.sqliteFile} exists): restore into an empty DATA_DIR, or add --force to replace its database, uploads and secret key.`,
    );
  if (sqliteInUse(install.sqliteFile))
    throw new ToolError(
      `${install.sqliteFile} is open in another process (a Tenpo server or worker on this DATA_DIR): stop it before restoring.`,
    );

  await fsp.mkdir(path.dirname(dataDir), { recursive: true });
  const staging = await fsp.mkdtemp(`${dataDir}.restore-`);
  try {
    let entries: Entry[] = [];
    try {
      await pipeline(fs.createReadStream(archive), createGunzip(), async (source) => {
        entries = await readTar(source as AsyncIterable<Buffer>, async (p) => {
          if (!safeEntry(p)) throw new ToolError(`The archive holds ${p}, which is not Tenpo's.`);
          // The database and the key for the owner only; uploads as the server writes them.
          const mode = p === DB_ENTRY || p === KEY_ENTRY ? 0o600 : 0o644;
          return fileSink(path.join(staging, ...p.split('/')), mode);
        });
      });
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError(`${archive} is damaged or not a Tenpo backup: ${(err as Error).message}`);
    }
    const manifestFile = path.join(staging, MANIFEST);
    if (!fs.existsSync(manifestFile))
      throw new ToolError(
        `${archive} has no manifest: it is not a Tenpo backup, or it is cut short.`,
      );
    const manifest = JSON.parse(await fsp.readFile(manifestFile, 'utf8')) as Manifest;
    if (manifest.format !== 'tenpo-backup' || manifest.formatVersion !== 1)
      throw new ToolError(`${archive} is not a Tenpo backup this version reads.`);
    const found = new Map(entries.filter((e) => e.path !== MANIFEST).map((e) => [e.path, e]));
    for (const f of manifest.files) {
      const e = found.get(f.path);
      if (!e) throw new ToolError(`${archive} is missing ${f.path}, which its manifest lists.`);
      if (e.size !== f.size || e.sha256 !== f.sha256)
        throw new ToolError(
          `${archive} is damaged: ${f.path} does not match the SHA-256 in its manifest.`,
        );
      found.delete(f.path);
    }
    if (found.size > 0)
      throw new ToolError(
        `${archive} holds files its manifest does not list: ${[...found.keys()].join(', ')}.`,
      );
    const db = new Sqlite(path.join(staging, DB_ENTRY), { readonly: true, fileMustExist: true });
    try {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok')
        throw new ToolError(`The database in ${archive} fails SQLite's check: ${String(check)}`);
    } finally {
      db.close();
    }

    // Verified: replace what the archive holds, and nothing else of DATA_DIR.
    for (const s of ['', ...SQLITE_SIDE_FILES])
      await fsp.rm(install.sqliteFile + s, { force: true });
    await move(path.join(staging, DB_ENTRY), install.sqliteFile);
    if (manifest.uploads.included) {
      await fsp.rm(path.join(dataDir, UPLOADS), { recursive: true, force: true });
      const from = path.join(staging, UPLOADS);
      if (fs.existsSync(from)) await move(from, path.join(dataDir, UPLOADS));
      else await fsp.mkdir(path.join(dataDir, UPLOADS), { recursive: true });
    }
    if (manifest.secretKey.included) {
      const key = path.join(dataDir, KEY_ENTRY);
      await fsp.rm(key, { force: true });
      await move(path.join(staging, KEY_ENTRY), key);
      await fsp.chmod(key, 0o600);
    }
    log(
      `Restored ${archive} (Tenpo ${manifest.tenpoVersion}, made ${manifest.createdAt}) into ${dataDir}: database${manifest.uploads.included ? `, ${manifest.uploads.count} uploads` : ''}${manifest.secretKey.included ? ', secret key' : ''}.`,
    );
    if (!manifest.uploads.included && manifest.uploads.note) log(`  ${manifest.uploads.note}`);
    if (!manifest.secretKey.included)
      log(
        '  The archive has no secret key: set TENPO_SECRET_KEY to the key the install used, or its provider tokens cannot be read.',
      );
    return manifest;
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}
