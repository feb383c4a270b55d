// Stores of the demo agency made for a bench run, 200 to an insert.
import type { Db } from '../../apps/api/src/db/kysely';

/** `count` stores of agency@tenpo.example (`bench-store-N`, ベンチ店 N); answers their ids. */
export async function addAgencyStores(db: Db, count: number): Promise<number[]> {
  const now = new Date().toISOString();
  const agency = (
    await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'agency@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  const ids: number[] = [];
  for (let i = 0; i < count; i += 200) {
    const rows = Array.from({ length: Math.min(200, count - i) }, (_, k) => ({
      email: `bench-store-${i + k}@tenpo.example`,
      password_hash: null,
      name: null,
      role: 1,
      account_kind: 0,
      is_leader: 0,
      agreed_terms: 1,
      phone: null,
      company_name: 'ベンチ株式会社',
      store_name: `ベンチ店 ${i + k}`,
      logo_url: null,
      agent_code: null,
      trial_ends_at: null,
      payment_fail: 0,
      agency_id: agency,
      status: 1,
      created_at: now,
      updated_at: now,
    }));
    const got = await db.insertInto('users').values(rows).returning('id').execute();
    ids.push(...got.map((r) => r.id));
  }
  return ids;
}
