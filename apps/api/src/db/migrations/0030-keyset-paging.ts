import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Keyset paging (issue 26, ADR 0098): one index per sort order of a store list, each leading
 * with the agency, so a page next to another (`key = x and id > y`, then `key > x`) and the
 * last page (read backwards) are seeks, and the list's count reads the index alone:
 * - `users_stores_id`: by id (the manager's lists filter on agency_id too); `role` carried for
 *   the count (PostgreSQL: `include`);
 * - `users_stores_name`: by the name the list shows, `coalesce(store_name, company_name, email)`
 *   (the expression stores.repo.ts sorts by, never null, so the row comparison holds);
 * - `users_stores_created`: by created_at;
 * - `users_role_id`: the manager's agencies (role 11) in id order.
 * The audit log pages by id alone: its primary key and its (store_id, id), (agency_id, id) serve.
 */
export const keysetPaging = (dialect: Dialect) => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await (
      dialect === 'postgres'
        ? sql`create index users_stores_id on users (agency_id, id) include (role)`
        : sql`create index users_stores_id on users (agency_id, id, role)`
    ).execute(db);
    await sql`create index users_stores_name on users (agency_id, coalesce(store_name, company_name, email), id)`.execute(
      db,
    );
    await sql`create index users_stores_created on users (agency_id, created_at, id)`.execute(db);
    await sql`create index users_role_id on users (role, id)`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    for (const name of [
      'users_stores_id',
      'users_stores_name',
      'users_stores_created',
      'users_role_id',
    ])
      await sql`drop index if exists ${sql.id(name)}`.execute(db);
  },
});
