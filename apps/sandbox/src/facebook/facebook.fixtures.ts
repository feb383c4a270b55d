/** The demo shop's Facebook user, its four Pages (two linked to Instagram) and a user without Pages. */
export type FbUserFixture = { id: string; name: string; email: string };
export type FbPageFixture = {
  id: string;
  name: string;
  category: string;
  categoryId: string;
  ownerId: string;
  username: string;
  igId?: string;
};
export type IgUserFixture = {
  id: string;
  username: string;
  name: string;
  pageId: string;
  followers: number;
};

export const fbUsers: FbUserFixture[] = [
  { id: '122104567890123456', name: '店舗 太郎 (Tenpo Demo Shop)', email: 'shop@tenpo.example' },
  { id: '122104567890654321', name: 'ページなし ユーザー', email: 'nopages@tenpo.example' },
];

export const fbPages: FbPageFixture[] = [
  {
    id: '104857392017465',
    name: 'カフェ テンポ 渋谷店',
    category: 'カフェ',
    categoryId: '128673187201735',
    ownerId: '122104567890123456',
    username: 'cafetenpo.shibuya',
    igId: '17841400000000101',
  },
  {
    id: '104857392017466',
    name: 'カフェ テンポ 吉祥寺店',
    category: 'カフェ',
    categoryId: '128673187201735',
    ownerId: '122104567890123456',
    username: 'cafetenpo.kichijoji',
    igId: '17841400000000102',
  },
  {
    id: '104857392017467',
    name: 'テンポ ベーカリー 自由が丘',
    category: 'ベーカリー',
    categoryId: '197871390225897',
    ownerId: '122104567890123456',
    username: 'tenpobakery',
  },
  {
    id: '104857392017468',
    name: 'Tenpo Demo Shop 公式',
    category: 'ブランド',
    categoryId: '1605186416478696',
    ownerId: '122104567890123456',
    username: 'tenpodemoshop',
  },
];

export const igUsers: IgUserFixture[] = [
  {
    id: '17841400000000101',
    username: 'cafe_tenpo_shibuya',
    name: 'カフェ テンポ 渋谷店',
    pageId: '104857392017465',
    followers: 1824,
  },
  {
    id: '17841400000000102',
    username: 'cafe_tenpo_kichijoji',
    name: 'カフェ テンポ 吉祥寺店',
    pageId: '104857392017466',
    followers: 967,
  },
];

export const FB_PERMISSIONS = [
  'public_profile',
  'email',
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_posts',
  'pages_manage_engagement',
  'pages_read_user_engagement',
  'publish_video',
  'business_management',
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_insights',
  'read_insights',
];

/**
 * The grant the demo shop's Facebook user holds from the start (README "Seeded grants"): a
 * long-lived user token with every permission, over all four Pages, and the page token of
 * カフェ テンポ 渋谷店 (linked to @cafe_tenpo_shibuya) derived from it. Page tokens from a
 * long-lived user token never expire; this user token does not either, unlike a real one
 * (60 days), so the demo keeps working however long it sits unused. Tokens exchanged from it
 * (`fb_exchange_token`) follow the normal rules. De-authorizing ends it until the next reset.
 */
export type FbDemoGrant = {
  userId: string;
  userToken: string;
  pageIds: string[];
  pageTokens: Record<string, string>;
};

export const fbDemoGrants: readonly FbDemoGrant[] = [
  {
    userId: '122104567890123456',
    userToken: 'EAATSandboxDemoGrantUser122104567890123456LongLived',
    pageIds: ['104857392017465', '104857392017466', '104857392017467', '104857392017468'],
    pageTokens: { '104857392017465': 'EAATSandboxDemoGrantPage104857392017465' },
  },
];
