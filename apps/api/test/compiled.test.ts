import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '@tenpo/domain';
import { compiledOnce } from '../src/db/compiled';
import { buildTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('compiledOnce', () => {
  it('runs the query compiled once with each call’s arguments, constants kept', async () => {
    const { db } = t.database;
    let builds = 0;
    const shopByEmail = compiledOnce(db, (email: string) => {
      builds++;
      return db
        .selectFrom('users')
        .select(['email', 'role'])
        .where('role', '=', ROLE.shop)
        .where('email', '=', email);
    });
    expect(await shopByEmail('shop@tenpo.example')).toEqual([
      { email: 'shop@tenpo.example', role: ROLE.shop },
    ]);
    expect(await shopByEmail('newshop@tenpo.example')).toEqual([
      { email: 'newshop@tenpo.example', role: ROLE.shop },
    ]);
    // An agency is not a shop: the constant parameter is still bound.
    expect(await shopByEmail('agency@tenpo.example')).toEqual([]);
    expect(builds).toBe(1);
  });

  it('refuses an argument that is not exactly one bound parameter', async () => {
    const { db } = t.database;
    const unused = compiledOnce(db, (_email: string) => db.selectFrom('users').select('id'));
    await expect(unused('shop@tenpo.example')).rejects.toThrow(/argument 0/);
    const twice = compiledOnce(db, (email: string) =>
      db.selectFrom('users').select('id').where('email', '=', email).where('name', '=', email),
    );
    await expect(twice('shop@tenpo.example')).rejects.toThrow(/argument 0/);
  });

  it('waits for an open transaction instead of reading its uncommitted rows', async () => {
    const { db } = t.database;
    const byEmail = compiledOnce(db, (email: string) =>
      db.selectFrom('users').select('email').where('email', '=', email),
    );
    const email = 'uncommitted@tenpo.example';
    let read: Promise<unknown[]> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({
            ...(await trx
              .selectFrom('users')
              .selectAll()
              .where('id', '=', 1)
              .executeTakeFirstOrThrow()),
            id: undefined,
            email,
          })
          .execute();
        read = byEmail(email);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await read).toEqual([]);
    expect(await byEmail(email)).toEqual([]);
  });

  // The statement cache is SQLite's (PostgreSQL streams need a cursor the dialect is not given).
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'reuses a cached statement after a stream of it was broken off',
    async () => {
      const { db } = t.database;
      const emails = db.selectFrom('users').select('email').orderBy('id');
      const all = (await emails.execute()).map((r) => r.email);
      for await (const row of emails.stream()) {
        expect(row.email).toBe(all[0]);
        break;
      }
      expect((await emails.execute()).map((r) => r.email)).toEqual(all);
      const streamed: string[] = [];
      for await (const row of emails.stream()) streamed.push(row.email);
      expect(streamed).toEqual(all);
    },
  );
});
