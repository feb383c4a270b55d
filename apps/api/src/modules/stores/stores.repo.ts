import { sql } from 'kysely';
import { ROLE, type Group, type KeysetPage, type StoreRow } from '@tenpo/domain';
import type { Db } from '../../db/kysely';
import { keysetPage, type KeysetRequest, type Seek } from '../../lib/keyset';
import { seekRows, type KeysetOrder } from '../../lib/keyset.repo';
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

/**
 * The name a store is listed and sorted by, as the list shows it (never null, so the seek's
 * `=` and `>` hold on every row); the index users_stores_name (migration 0030) is on it.
 */
const storeSortName = sql<string>`coalesce(${sql.ref('u.store_name')}, ${sql.ref('u.company_name')}, ${sql.ref('u.email')})`;

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

  /** The list's sort keys, the id last (ADR 0098); each has an index that leads with agency_id. */
  const sortOf = (o: NonNullable<StoreFilter['orderBy']>): KeysetOrder => ({
    keys: [
      ...(o.column === 'name'
        ? [storeSortName]
        : o.column === 'created_at'
          ? [sql.ref('u.created_at')]
          : []),
      sql.ref('u.id'),
    ],
    direction: o.direction,
  });

  return {
    /**
     * A page of stores, by number or next to a page shown (`after` / `before`, ADR 0098): the
     * cursor's keys seek the index, the filter (the tenant) is always the caller's.
     */
    async page(f: StoreFilter, req: KeysetRequest, now: Date): Promise<KeysetPage<StoreRow>> {
      const base = filtered(f);
      const total = await base
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const order = f.orderBy ?? { column: 'id', direction: 'asc' };
      const query = base.select((eb) => [
        'u.id',
        'u.email',
        'u.role',
        'u.status',
        'u.agent_code',
        'u.company_name',
        'u.store_name',
        'u.created_at',
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
      ]);
      const list = await keysetPage(req, {
        total: Number(total.n),
        order: `${order.column},${order.direction}`,
        keyTypes: order.column === 'id' ? ['number'] : ['string', 'number'],
        keyOf: (r) =>
          order.column === 'name'
            ? [r.store_name ?? r.company_name ?? r.email, r.id]
            : order.column === 'created_at'
              ? [r.created_at, r.id]
              : [r.id],
        read: (seek: Seek) => seekRows(query, sortOf(order), seek),
      });
      const rows = list.rows;
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
      return {
        data,
        current_page: list.current_page,
        last_page: list.last_page,
        total: Number(total.n),
        per_page: req.perPage,
        from: list.from,
        to: list.to,
        next_cursor: list.next_cursor,
        prev_cursor: list.prev_cursor,
      };
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
