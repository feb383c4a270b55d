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
});
