import { ROLE } from '@tenpo/domain';
import type { Db } from './kysely';
import type { NewUser } from './types';
import { hashPassword } from '../lib/passwords';
import { addMs, DAY, iso, type Clock } from '../lib/clock';

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

const demoUsers = (now: Date): DemoUser[] => [
  {
    ...base,
    email: 'shop@tenpo.example',
    name: '青木 翼',
    role: ROLE.shop,
    phone: '0312345678',
    company_name: '株式会社青木商店',
    store_name: '青木ベーカリー 恵比寿店',
  },
  {
    ...base,
    email: 'trial@tenpo.example',
    name: '石井 陽菜',
    role: ROLE.freeTrial,
    phone: '0311112222',
    company_name: '石井珈琲',
    store_name: '石井珈琲 中目黒',
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
    company_name: 'きむら食堂',
    store_name: 'きむら食堂 高円寺',
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

/** Google (and, for the shop, Facebook and Instagram) connections of the demo data. */
const connections: Record<string, string[]> = {
  'shop@tenpo.example': ['google_my_business', 'facebook', 'instagram'],
  'trial@tenpo.example': ['google_my_business'],
  'expired@tenpo.example': ['google_my_business'],
  'payfail@tenpo.example': ['google_my_business'],
  ...Object.fromEntries(
    AGENCY_STORES.filter((s) => s.google).map((s) => [s.email, ['google_my_business']]),
  ),
};

/**
 * Seeds the demo data of DESIGN §8. Idempotent: each row is looked up by its natural key
 * (e-mail, group name, prefix) and inserted only when missing, so a second start changes nothing.
 */
export async function seedDemo(db: Db, clock: Clock): Promise<{ created: number }> {
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

  for (const [email, keys] of Object.entries(connections)) {
    for (const key of keys) {
      await db
        .insertInto('publisher_connections')
        .values({
          user_id: idOf(email),
          publisher_key: key,
          status: 1,
          entity_id: null,
          location_name: null,
          postal_code: null,
          address_lines: null,
          store_code: null,
          log: '[]',
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
