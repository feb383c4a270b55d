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
