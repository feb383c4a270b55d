import { sql } from 'kysely';
import { pageOf, ROLE, type Group, type Page, type StoreRow } from '@tenpo/domain';
import type { Db } from '../../db/kysely';
import { createReviewMetricsRepo } from '../reviews/review-metrics.repo';
import { GOOGLE_KEY, googleStatusOf } from '../users/users.repo';

export type StoreFilter = {
  agencyId?: number;
  groupId?: number;
  /** Stores in any group this leader leads. */
  leaderId?: number;
  /** Manager's list: every store of every tenant. */
  allStores?: boolean;
  search?: string;
  orderBy?: { column: 'id' | 'name' | 'created_at'; direction: 'asc' | 'desc' };
};

export type StoresRepo = ReturnType<typeof createStoresRepo>;

export function createStoresRepo(db: Db) {
  const reviewMetrics = createReviewMetricsRepo(db);
  const stores = () =>
    db.selectFrom('users as u').where('u.role', 'in', [ROLE.freeTrial, ROLE.shop]);
  const filtered = (f: StoreFilter) => {
    let q = stores();
    if (f.agencyId !== undefined) q = q.where('u.agency_id', '=', f.agencyId);
    if (f.groupId !== undefined) {
      const groupId = f.groupId;
      q = q.where('u.id', 'in', (eb) =>
        eb.selectFrom('group_members').select('user_id').where('group_id', '=', groupId),
      );
    }
    if (f.leaderId !== undefined) {
      const leaderId = f.leaderId;
      q = q.where('u.id', 'in', (eb) =>
        eb
          .selectFrom('group_members as m')
          .innerJoin('store_groups as g', 'g.id', 'm.group_id')
          .select('m.user_id')
          .where('g.leader_id', '=', leaderId),
      );
    }
    if (f.search) {
      const like = `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) =>
        eb.or(
          (['u.store_name', 'u.company_name', 'u.email', 'u.name'] as const).map((c) =>
            eb(sql`lower(coalesce(${sql.ref(c)}, ''))`, 'like', sql`${like} escape '\\'`),
          ),
        ),
      );
    }
    return q;
  };

  return {
    async page(f: StoreFilter, page: number, perPage: number, now: Date): Promise<Page<StoreRow>> {
      const base = filtered(f);
      const total = await base
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const order = f.orderBy ?? { column: 'id', direction: 'asc' };
      const orderCol =
        order.column === 'name'
          ? 'u.store_name'
          : order.column === 'created_at'
            ? 'u.created_at'
            : 'u.id';
      const rows = await base
        .select((eb) => [
          'u.id',
          'u.email',
          'u.role',
          'u.status',
          'u.agent_code',
          'u.company_name',
          'u.store_name',
          'u.name as person_in_charge',
          'u.trial_ends_at',
          'u.payment_fail',
          eb
            .selectFrom('users as a')
            .select('a.logo_url')
            .whereRef('a.id', '=', 'u.agency_id')
            .as('agency_logo'),
          eb
            .selectFrom('publisher_connections as p')
            .select('p.status')
            .whereRef('p.user_id', '=', 'u.id')
            .where('p.publisher_key', '=', GOOGLE_KEY)
            .limit(1)
            .as('google_connection'),
        ])
        .orderBy(orderCol, order.direction)
        .orderBy('u.id', 'asc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      const nowIso = now.toISOString();
      // The page's reviews (issue 25 item 7): the overview's 平均評価 and 未返信 columns.
      const reviews = await reviewMetrics.summaries(rows.map((r) => r.id));
      const data: StoreRow[] = rows.map((r) => ({
        id: r.id,
        name: r.store_name ?? r.company_name ?? r.email,
        status: r.status,
        role: r.role,
        in_trial: r.role === ROLE.freeTrial && r.trial_ends_at !== null && r.trial_ends_at > nowIso,
        agency_logo: r.agency_logo ?? null,
        agent_code: r.agent_code,
        company_name: r.company_name,
        person_in_charge: r.person_in_charge,
        email: r.email,
        google_status: googleStatusOf(r.google_connection),
        payment_fail: r.payment_fail === 1,
        reviews: reviews.get(r.id),
      }));
      return pageOf(data, Number(total.n), page, perPage);
    },

    async groups(where: { agencyId?: number; leaderId?: number }): Promise<Group[]> {
      let q = db.selectFrom('store_groups').select(['id', 'name', 'leader_id']).orderBy('id');
      if (where.agencyId !== undefined) q = q.where('agency_id', '=', where.agencyId);
      if (where.leaderId !== undefined) q = q.where('leader_id', '=', where.leaderId);
      const groups = await q.execute();
      if (groups.length === 0) return [];
      const members = await db
        .selectFrom('group_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.group_id', 'u.id', 'u.store_name', 'u.company_name', 'u.email'])
        .where(
          'm.group_id',
          'in',
          groups.map((g) => g.id),
        )
        .orderBy('u.id')
        .execute();
      return groups.map((g) => ({
        id: g.id,
        name: g.name,
        leader: g.leader_id,
        stores: members
          .filter((m) => m.group_id === g.id)
          .map((m) => ({ id: m.id, name: m.store_name ?? m.company_name ?? m.email })),
      }));
    },

    group: (id: number) =>
      db.selectFrom('store_groups').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}
