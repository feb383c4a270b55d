import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Sqlite from 'better-sqlite3';
import { METRIC_FIELDS, ROLE } from '@tenpo/domain';
import { openDatabase, type DbHandle } from '../src/db/kysely';
import { migrateToLatest } from '../src/db/migrate';
import { seedDemo } from '../src/db/seed';
import { systemClock } from '../src/lib/clock';

/**
 * An embedded install as a running Tenpo leaves it: DATA_DIR with the demo seed in tenpo.sqlite,
 * posts with media and their queued publish jobs, uploads (with their content-type files beside
 * them, one under a name longer than a tar header holds) and a secret key.
 */
export async function seedInstall(dataDir: string): Promise<DbHandle> {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'secret.key'), `${randomBytes(32).toString('hex')}\n`, {
    mode: 0o600,
  });
  const handle = openDatabase(`sqlite:${path.join(dataDir, 'tenpo.sqlite')}`);
  await migrateToLatest(handle);
  await seedDemo(handle.db, systemClock);
  const db = handle.db;
  const now = new Date().toISOString();
  const user = {
    account_kind: 0,
    is_leader: 0,
    agreed_terms: 1,
    payment_fail: 0,
    status: 1,
    created_at: now,
    updated_at: now,
  };
  const later = new Date(Date.now() + 86_400_000).toISOString();

  // An agency made after the store it owns: a self-reference to a larger id.
  const store = await db
    .insertInto('users')
    .values({
      email: 'late-store@tenpo.example',
      role: ROLE.shop,
      ...user,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Far enough after it that no batch of the copy holds both (PostgreSQL checks a foreign key
  // at the end of each statement).
  for (const i of [1, 2, 3, 4])
    await db
      .insertInto('users')
      .values({ email: `between-${i}@tenpo.example`, role: ROLE.shop, ...user })
      .execute();
  const agency = await db
    .insertInto('users')
    .values({
      email: 'late-agency@tenpo.example',
      role: ROLE.agency,
      ...user,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.updateTable('users').set({ agency_id: agency.id }).where('id', '=', store.id).execute();

  const uploads = path.join(dataDir, 'uploads');
  const keys: string[] = [];
  for (let i = 0; i < 3; i++) {
    const dir = i === 2 ? `media/${'deep-folder-name-'.repeat(6)}` : 'media';
    const name = `${randomBytes(8).toString('hex')}-写真${i}.jpg`;
    fs.mkdirSync(path.join(uploads, dir), { recursive: true });
    fs.writeFileSync(path.join(uploads, dir, name), randomBytes(150_000 + i * 7));
    fs.writeFileSync(
      path.join(uploads, dir, `.${name}.json`),
      JSON.stringify({ contentType: 'image/jpeg' }),
    );
    keys.push(`${dir}/${name}`);
  }
  const stores = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', ROLE.shop)
    .orderBy('id')
    .limit(2)
    .execute();
  const author = stores[0]?.id as number;
  for (const [i, s] of stores.entries()) {
    const post = await db
      .insertInto('posts')
      .values({
        submission_id: `sub-${i}`,
        store_id: s.id,
        author_id: author,
        content: `予約投稿 ${i} — 本日のおすすめ`,
        button_type: 0,
        button_link: null,
        phone_number: null,
        channels: JSON.stringify(['google', 'facebook']),
        publish_at: later,
        delete_at: null,
        created_at: now,
        updated_at: now,
        topic: i === 1 ? JSON.stringify({ type: 'offer', title: '10%オフ' }) : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('post_media')
      .values({
        post_id: post.id,
        position: 0,
        storage_key: keys[i] as string,
        kind: 'photo',
        mime: 'image/jpeg',
        bytes: 150_000,
        width: 1200,
        height: 900,
        duration_ms: null,
        created_at: now,
      })
      .execute();
    for (const channel of ['google', 'facebook']) {
      const key = `post:${post.id}:${channel}`;
      await db
        .insertInto('post_targets')
        .values({
          post_id: post.id,
          store_id: s.id,
          publisher_key: channel,
          state: 'scheduled',
          idempotency_key: key,
          external_id: null,
          external_url: null,
          error_kind: null,
          error_lines: '[]',
          attempts: 0,
          retries: 0,
          sent_at: null,
          published_at: null,
          remove_at: null,
          removed_at: null,
          created_at: now,
          updated_at: now,
          parts: null,
          account: null,
        })
        .execute();
      await db
        .insertInto('jobs')
        .values({
          queue: 'post.publish',
          payload: JSON.stringify({ postId: post.id, channel }),
          status: 'queued',
          attempts: 0,
          max_attempts: 5,
          run_at: later,
          locked_until: null,
          last_error: null,
          idempotency_key: key,
          owner: null,
          started_at: null,
          finished_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
  }
  // A month of metrics whose running totals pass 2^31: the bigint columns.
  const fields = Object.fromEntries(METRIC_FIELDS.map((f, i) => [f, i * 11]));
  const totals = Object.fromEntries(
    [...METRIC_FIELDS, 'search_keywords'].map((f, i) => [`cum_${f}`, 3_000_000_000 + i]),
  );
  await db
    .insertInto('metric_months')
    .values({
      store_id: author,
      month: '2026-10',
      search_keywords: 5,
      days: 31,
      updated_at: now,
      ...fields,
      ...totals,
    } as never)
    .execute();
  return handle;
}

/**
 * Tenpo's tables of a SQLite file (not SQLite's nor the migrator's, nor a virtual table's: the
 * reviews' FTS5 search index and its shadow tables, ADR 0092).
 */
export function tablesOf(file: string): string[] {
  const db = new Sqlite(file, { readonly: true });
  try {
    const virtual = db
      .prepare(
        "select name from sqlite_master where type = 'table' and sql like 'create virtual table%'",
      )
      .pluck()
      .all() as string[];
    return (
      db
        .prepare(
          "select name from sqlite_master where type = 'table' and name not like 'sqlite%' and name not like 'kysely%' order by name",
        )
        .pluck()
        .all() as string[]
    ).filter((n) => !virtual.some((v) => n === v || n.startsWith(`${v}_`)));
  } finally {
    db.close();
  }
}

/** The primary key columns of a table, to order its rows the same way on both databases. */
export function keyOf(file: string, table: string): string[] {
  const db = new Sqlite(file, { readonly: true });
  try {
    const cols = db.pragma(`table_info(${JSON.stringify(table)})`) as {
      name: string;
      pk: number;
    }[];
    const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    return (pk.length > 0 ? pk : cols).map((c) => c.name);
  } finally {
    db.close();
  }
}

/** Every row of every Tenpo table of a SQLite file, in key order. */
export function sqliteRows(file: string): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const tables = tablesOf(file);
  const db = new Sqlite(file, { readonly: true });
  try {
    for (const t of tables) {
      const order = keyOf(file, t)
        .map((c) => `"${c}"`)
        .join(', ');
      out[t] = db.prepare(`select * from "${t}" order by ${order}`).all();
    }
  } finally {
    db.close();
  }
  return out;
}

/** Every file under a folder, relative path → bytes. */
export function filesOf(dir: string, rel = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!fs.existsSync(path.join(dir, rel))) return out;
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of filesOf(dir, p)) out.set(k, v);
    else out.set(p, fs.readFileSync(path.join(dir, p)));
  }
  return out;
}
