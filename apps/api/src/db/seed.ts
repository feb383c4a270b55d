import {
  addDays,
  DEFAULT_PLAN_PRICES,
  PLAN,
  PUBLISHER_STATUS,
  ROLE,
  tokyoDay,
  type PublisherKey,
} from '@tenpo/domain';
import { PostgresAdapter, sql } from 'kysely';
import type { Db } from './kysely';
import type { ChannelCredentialsTable, NewUser, PublisherConnectionsTable } from './types';
import { hashPassword } from '../lib/passwords';
import { addMs, DAY, iso, type Clock } from '../lib/clock';
import { encrypt } from '../lib/tokens';
import { newOrderId, nextBillingDay } from '../modules/payments/payments.rules';

/** Password of every demo account (DESIGN §8). */
export const DEMO_PASSWORD = 'tenpo-demo-1';

type DemoUser = Omit<NewUser, 'password_hash' | 'created_at' | 'updated_at' | 'agency_id'> & {
  agency?: string;
};

const base = {
  account_kind: 0,
  is_leader: 0,
  agreed_terms: 1,
  logo_url: null,
  agent_code: '0000',
  trial_ends_at: null,
  payment_fail: 0,
  status: 1,
} as const;

/** The agency's twelve stores: the leader's group of four, a second group of three, five more. */
const AGENCY_STORES: {
  email: string;
  store: string;
  company: string;
  person: string;
  google: boolean;
  status?: number;
  role?: number;
  trialEnded?: boolean;
}[] = [
  {
    email: 'leader@tenpo.example',
    store: 'カフェ・ミナト 渋谷店',
    company: '株式会社ミナトフーズ',
    person: '佐藤 花子',
    google: true,
  },
  {
    email: 'store02@tenpo.example',
    store: 'カフェ・ミナト 新宿店',
    company: '株式会社ミナトフーズ',
    person: '鈴木 一郎',
    google: true,
  },
  {
    email: 'store03@tenpo.example',
    store: 'カフェ・ミナト 池袋店',
    company: '株式会社ミナトフーズ',
    person: '高橋 美咲',
    google: true,
  },
  {
    email: 'store04@tenpo.example',
    store: 'カフェ・ミナト 品川店',
    company: '株式会社ミナトフーズ',
    person: '田中 健',
    google: false,
  },
  {
    email: 'store05@tenpo.example',
    store: 'うどん処 さぬき屋 梅田店',
    company: '有限会社さぬき屋',
    person: '伊藤 誠',
    google: true,
  },
  {
    email: 'store06@tenpo.example',
    store: 'うどん処 さぬき屋 難波店',
    company: '有限会社さぬき屋',
    person: '渡辺 里奈',
    google: true,
  },
  {
    email: 'store07@tenpo.example',
    store: 'うどん処 さぬき屋 三宮店',
    company: '有限会社さぬき屋',
    person: '山本 翔太',
    google: true,
  },
  {
    email: 'store08@tenpo.example',
    store: 'ヘアサロン ルミエール 表参道',
    company: '株式会社ルミエール',
    person: '中村 優子',
    google: true,
  },
  {
    email: 'store09@tenpo.example',
    store: 'ヘアサロン ルミエール 自由が丘',
    company: '株式会社ルミエール',
    person: '小林 大輔',
    google: false,
  },
  {
    email: 'store10@tenpo.example',
    store: '整体院 ほぐし庵 横浜',
    company: 'ほぐし庵合同会社',
    person: '加藤 真由美',
    google: true,
  },
  {
    email: 'store11@tenpo.example',
    store: '花屋 フルール 吉祥寺',
    company: 'フルール株式会社',
    person: '吉田 直樹',
    google: true,
    role: ROLE.freeTrial,
    trialEnded: true,
  },
  {
    email: 'store12@tenpo.example',
    store: 'ベーカリー こむぎ 調布（休止中）',
    company: 'こむぎ株式会社',
    person: '山田 恵',
    google: false,
    status: 0,
  },
];

/**
 * The demo accounts. Each store's name and trade are those of the listings and pages its
 * providers hold for it (the sandbox's fixtures), so a connected store shows its own.
 */
const demoUsers = (now: Date): DemoUser[] => [
  {
    ...base,
    email: 'shop@tenpo.example',
    name: '青木 翼',
    role: ROLE.shop,
    phone: '0312345678',
    company_name: '株式会社カフェテンポ',
    store_name: 'カフェ テンポ 渋谷店',
  },
  {
    ...base,
    email: 'trial@tenpo.example',
    name: '石井 陽菜',
    role: ROLE.freeTrial,
    phone: '0311112222',
    company_name: 'ヘアサロン はな',
    store_name: 'ヘアサロン はな 下北沢',
    trial_ends_at: iso(addMs(now, 20 * DAY)),
  },
  {
    ...base,
    email: 'expired@tenpo.example',
    name: '上田 蓮',
    role: ROLE.freeTrial,
    phone: '0333334444',
    company_name: '上田生花店',
    store_name: '上田生花店 三軒茶屋',
    trial_ends_at: iso(addMs(now, -5 * DAY)),
  },
  {
    ...base,
    email: 'payfail@tenpo.example',
    name: '岡田 美月',
    role: ROLE.shop,
    phone: '0355556666',
    company_name: '岡田整骨院',
    store_name: '岡田整骨院 下北沢',
    payment_fail: 1,
  },
  {
    ...base,
    email: 'newshop@tenpo.example',
    name: '木村 颯',
    role: ROLE.shop,
    phone: '0377778888',
    company_name: '株式会社らーめん一歩',
    store_name: 'らーめん 一歩 新宿西口店',
    agreed_terms: 0,
  },
  {
    ...base,
    email: 'agency@tenpo.example',
    name: '後藤 拓海',
    role: ROLE.agency,
    account_kind: 1,
    phone: '0399990000',
    company_name: '株式会社デモエージェンシー',
    store_name: null,
    agent_code: '1001',
  },
  {
    ...base,
    email: 'manager@tenpo.example',
    name: 'Tenpo 運営',
    role: ROLE.manager,
    phone: null,
    company_name: 'Tenpo 運営事務局',
    store_name: null,
  },
  ...AGENCY_STORES.map((s) => ({
    ...base,
    email: s.email,
    name: s.person,
    role: s.role ?? ROLE.shop,
    is_leader: s.email === 'leader@tenpo.example' ? 1 : 0,
    phone: null,
    company_name: s.company,
    store_name: s.store,
    agent_code: '1001',
    status: s.status ?? 1,
    trial_ends_at: s.trialEnded ? iso(addMs(now, -3 * DAY)) : null,
    agency: 'agency@tenpo.example',
  })),
];

/**
 * Grants the providers hold for the demo stores, and what connecting with them chose (a
 * location, a page). In sandbox mode the composition root passes the emulators' seeded grants;
 * the API never imports the sandbox itself. Matched to demo stores by login: Google's `store`
 * (several stores of one company share its Google user, `email`), Facebook's `email`.
 */
export type DemoGrants = {
  google: readonly {
    store: string;
    email: string;
    refreshToken: string;
    scope: string;
    location: {
      id: string;
      title: string;
      postalCode: string | null;
      addressLines: readonly string[];
      storeCode: string | null;
    };
  }[];
  facebook: readonly {
    email: string;
    userId: string;
    userToken: string;
    page: { id: string; name: string; token: string };
    instagram: { id: string; username: string } | null;
  }[];
};

/** The grants, and the key that seals provider tokens at rest (config.secretKey). */
export type DemoSeedGrants = { grants: DemoGrants; secretKey: Buffer };

/**
 * Connections that are real in sandbox mode: they need a grant (DESIGN §8). Every demo store
 * shown connected to Google holds one; the agency's store04 and store09 (whose companies'
 * accounts hold their listings) and the paused store12 are left to connect.
 */
const granted: Record<string, PublisherKey[]> = {
  'shop@tenpo.example': ['google_my_business', 'facebook', 'instagram'],
  'trial@tenpo.example': ['google_my_business'],
  'expired@tenpo.example': ['google_my_business'],
  'payfail@tenpo.example': ['google_my_business'],
  ...Object.fromEntries(
    AGENCY_STORES.filter((s) => s.google).map((s) => [s.email, ['google_my_business']]),
  ),
};

type ConnectionColumns = Omit<
  PublisherConnectionsTable,
  'id' | 'user_id' | 'publisher_key' | 'created_at' | 'updated_at'
>;
type CredentialColumns = Omit<
  ChannelCredentialsTable,
  'id' | 'user_id' | 'publisher_key' | 'created_at' | 'updated_at'
>;

const noListing = {
  entity_id: null,
  location_name: null,
  postal_code: null,
  address_lines: null,
  store_code: null,
  log: '[]',
} as const;
const disconnected: ConnectionColumns = { status: PUBLISHER_STATUS.disconnect, ...noListing };
const noCredentials = {
  refresh_token: null,
  expires_at: null,
  scope: null,
  provider_user_id: null,
  provider_account_id: null,
  page_id: null,
  page_token: null,
  ig_user_id: null,
} as const;

/**
 * The rows a real connect flow leaves for one demo connection (publisher.service callback,
 * entity.service choose, facebook-pages.service connectPage), or a disconnected row when the
 * provider holds no grant for it.
 */
function grantedRows(
  email: string,
  key: PublisherKey,
  demo: DemoSeedGrants | undefined,
  now: string,
): { connection: ConnectionColumns; credentials: CredentialColumns | null } {
  if (!demo) return { connection: disconnected, credentials: null };
  const seal = (v: string) => encrypt(demo.secretKey, v);
  if (key === 'google_my_business') {
    const g = demo.grants.google.find((x) => x.store === email);
    if (!g) return { connection: disconnected, credentials: null };
    return {
      connection: {
        status: PUBLISHER_STATUS.connected,
        entity_id: g.location.id,
        location_name: g.location.title,
        postal_code: g.location.postalCode,
        address_lines: JSON.stringify(g.location.addressLines),
        store_code: g.location.storeCode,
        log: '[]',
      },
      // No access token yet: expired as of now, so the first call refreshes it.
      credentials: {
        ...noCredentials,
        access_token: seal(''),
        refresh_token: seal(g.refreshToken),
        expires_at: now,
        scope: g.scope,
        // The Google user, as the callback stores it: shared by a company's stores.
        provider_user_id: g.email,
      },
    };
  }
  const f = demo.grants.facebook.find((x) => x.email === email);
  if (key === 'facebook') {
    if (!f) return { connection: disconnected, credentials: null };
    return {
      connection: {
        ...noListing,
        status: PUBLISHER_STATUS.connected,
        entity_id: f.page.id,
        location_name: f.page.name,
      },
      // The sandbox's demo user token does not expire; there is nothing to refresh ahead of.
      credentials: {
        ...noCredentials,
        access_token: seal(f.userToken),
        provider_user_id: f.userId,
        page_id: f.page.id,
        page_token: seal(f.page.token),
      },
    };
  }
  if (key === 'instagram') {
    if (!f?.instagram) return { connection: disconnected, credentials: null };
    return {
      connection: {
        ...noListing,
        status: PUBLISHER_STATUS.connected,
        entity_id: f.instagram.id,
        location_name: `@${f.instagram.username}`,
      },
      // Instagram is used with the page's token (API with Facebook Login).
      credentials: {
        ...noCredentials,
        access_token: seal(f.page.token),
        page_id: f.page.id,
        ig_user_id: f.instagram.id,
      },
    };
  }
  return { connection: disconnected, credentials: null };
}

/**
 * Seeds the demo data of DESIGN §8. Idempotent: each row is looked up by its natural key
 * (e-mail, group name, prefix, store and publisher) and inserted only when missing, so a
 * second start changes nothing. With `demo` (sandbox mode) the demo stores' connections hold
 * the providers' grants, sealed; without (live mode) they are disconnected.
 */
export async function seedDemo(
  db: Db,
  clock: Clock,
  demo?: DemoSeedGrants,
): Promise<{ created: number }> {
  // SQLite is written by one process at a time and the seed skips what exists. On PostgreSQL
  // several API processes may start at once: one transaction under an advisory lock, so a second
  // seed waits for the first to commit and then finds every row there (ADR 0053).
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return seedRows(db, clock, demo);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('tenpo-demo-seed'))`.execute(trx);
    return seedRows(trx, clock, demo);
  });
}

async function seedRows(db: Db, clock: Clock, demo?: DemoSeedGrants): Promise<{ created: number }> {
  const now = clock.now();
  const stamp = iso(now);
  const existing = new Map(
    (await db.selectFrom('users').select(['id', 'email']).execute()).map((u) => [u.email, u.id]),
  );
  let created = 0;
  let passwordHash: string | null = null;
  const idOf = (email: string): number => {
    const id = existing.get(email);
    if (id === undefined) throw new Error(`seed: ${email} missing`);
    return id;
  };

  for (const u of demoUsers(now)) {
    if (existing.has(u.email)) continue;
    passwordHash ??= await hashPassword(DEMO_PASSWORD);
    const { agency, ...row } = u;
    const inserted = await db
      .insertInto('users')
      .values({
        ...row,
        password_hash: passwordHash,
        agency_id: agency ? idOf(agency) : null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    existing.set(u.email, inserted.id);
    created += 1;
  }

  // A connection and its credentials go in together, only when the connection is missing: a
  // store that disconnected (or reconnected) since keeps what it has.
  for (const [email, keys] of Object.entries(granted)) {
    const userId = idOf(email);
    for (const key of keys) {
      const found = await db
        .selectFrom('publisher_connections')
        .select('id')
        .where('user_id', '=', userId)
        .where('publisher_key', '=', key)
        .executeTakeFirst();
      if (found) continue;
      const rows = grantedRows(email, key, demo, stamp);
      if (rows.credentials)
        await db
          .insertInto('channel_credentials')
          .values({
            user_id: userId,
            publisher_key: key,
            ...rows.credentials,
            created_at: stamp,
            updated_at: stamp,
          })
          .onConflict((oc) => oc.columns(['user_id', 'publisher_key']).doNothing())
          .execute();
      await db
        .insertInto('publisher_connections')
        .values({
          user_id: userId,
          publisher_key: key,
          ...rows.connection,
          created_at: stamp,
          updated_at: stamp,
        })
        .onConflict((oc) => oc.columns(['user_id', 'publisher_key']).doNothing())
        .execute();
    }
  }

  const agencyId = idOf('agency@tenpo.example');
  const groups = [
    {
      name: 'ミナト 東京エリア',
      leader: 'leader@tenpo.example',
      stores: [
        'leader@tenpo.example',
        'store02@tenpo.example',
        'store03@tenpo.example',
        'store04@tenpo.example',
      ],
    },
    {
      name: 'さぬき屋 関西エリア',
      leader: null,
      stores: ['store05@tenpo.example', 'store06@tenpo.example', 'store07@tenpo.example'],
    },
  ];
  for (const g of groups) {
    const found = await db
      .selectFrom('store_groups')
      .select('id')
      .where('agency_id', '=', agencyId)
      .where('name', '=', g.name)
      .executeTakeFirst();
    if (found) continue;
    const group = await db
      .insertInto('store_groups')
      .values({
        agency_id: agencyId,
        name: g.name,
        leader_id: g.leader ? idOf(g.leader) : null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('group_members')
      .values(g.stores.map((s) => ({ group_id: group.id, user_id: idOf(s) })))
      .execute();
  }

  await seedPayments(db, now, idOf);

  await db
    .insertInto('agency_domains')
    .values({
      agency_id: agencyId,
      prefix: 'demo',
      title: 'デモエージェンシー 店舗管理',
      favicon_url: null,
      created_at: stamp,
    })
    .onConflict((oc) => oc.column('prefix').doNothing())
    .execute();

  return { created };
}

/**
 * The demo stores' payments (ADR 0050): shop@ pays standard by card and its period runs;
 * payfail@'s last monthly charge was declined (its card declines every charge) and waits for a
 * new card; expired@ (trial over) and trial@ (in trial) have nothing yet. The cards are the
 * sandbox's demo customers of the same cust_code.
 */
async function seedPayments(db: Db, now: Date, idOf: (email: string) => number): Promise<void> {
  const stamp = iso(now);
  const today = tokyoDay(now.getTime());
  const accounts = [
    {
      email: 'shop@tenpo.example',
      custCode: 'tenpo-demo-shop',
      masked: '************1111',
      // Paid 10 days ago for a month.
      period: addDays(today, -10),
      state: 'paid' as const,
    },
    {
      email: 'payfail@tenpo.example',
      custCode: 'tenpo-demo-payfail',
      masked: '************0002',
      // This month's charge, 3 days ago, was declined; paid through the day before it.
      period: addDays(today, -3),
      state: 'failed' as const,
    },
  ];
  for (const a of accounts) {
    const userId = idOf(a.email);
    const found = await db
      .selectFrom('payment_accounts')
      .select('user_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (found) continue;
    const billingDay = Number(a.period.slice(8, 10));
    const next = a.state === 'paid' ? nextBillingDay(a.period, billingDay) : a.period;
    await db
      .insertInto('payment_accounts')
      .values({
        user_id: userId,
        method: 'credit_card',
        plan: PLAN.standard,
        next_plan: null,
        cust_code: a.custCode,
        card_brand: 'V',
        card_masked: a.masked,
        card_expiry: '203012',
        paid_through: addDays(next, -1),
        next_billing_on: next,
        billing_day: billingDay,
        created_at: stamp,
        updated_at: stamp,
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    await db
      .insertInto('payment_charges')
      .values({
        user_id: userId,
        period: a.period,
        attempt: 1,
        order_id: newOrderId(),
        kind: 'billing',
        plan: PLAN.standard,
        amount: DEFAULT_PLAN_PRICES[PLAN.standard],
        state: a.state,
        lease_until: null,
        lease_owner: null,
        sps_transaction_id: null,
        tracking_id: null,
        error_code: a.state === 'failed' ? '10122000' : null,
        origin: null,
        created_at: stamp,
        updated_at: stamp,
        settled_at: stamp,
      })
      .onConflict((oc) => oc.columns(['user_id', 'period', 'attempt']).doNothing())
      .execute();
  }
}
