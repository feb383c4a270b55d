import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStampOf, openDatabase, type DbHandle } from '../src/db/kysely';

// The change stamp of an embedded SQLite handle (ADR 0031, 0039), on a file of its own whatever
// database the suite runs on: what another connection commits moves it in the next turn of the
// event loop, or within the same turn once a millisecond has passed.
let dir: string;
let ours: DbHandle;
let other: DbHandle;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-stamp-'));
  const url = `sqlite:${path.join(dir, 'stamp.sqlite')}`;
  ours = openDatabase(url);
  await sql`create table probe (name text)`.execute(ours.db);
  other = openDatabase(url);
});
afterAll(async () => {
  await ours.close();
  await other.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const commit = (h: DbHandle, name: string) => sql`insert into probe values (${name})`.execute(h.db);

describe('the change stamp of a SQLite handle', () => {
  it('moves in the next turn after another connection commits', async () => {
    const stamp = changeStampOf(ours.db)!;
    await nextTurn();
    const before = stamp();
    await commit(other, '次の周');
    await nextTurn();
    expect(stamp()).not.toBe(before);
    // And stays put while nothing is written.
    const now = stamp();
    await nextTurn();
    expect(stamp()).toBe(now);
  });

  it('moves within the same turn once a millisecond has passed', async () => {
    const stamp = changeStampOf(ours.db)!;
    await nextTurn();
    const before = stamp();
    await commit(other, '同じ周');
    const until = performance.now() + 2;
    while (performance.now() < until); // no turn of the loop
    expect(stamp()).not.toBe(before);
  });

  it('moves at once on a write through the handle itself, and is null in a transaction', async () => {
    const stamp = changeStampOf(ours.db)!;
    const before = stamp();
    await commit(ours, '自分');
    expect(stamp()).not.toBe(before);
    await ours.db.transaction().execute(async () => {
      expect(stamp()).toBeNull();
    });
  });
});
