/**
 * Seed data of the Google emulator: the demo stores' Google users, their Business Profile
 * accounts and locations (matching Tenpo's demo data), and a slice of the category catalogue.
 */

export type CategoryFixture = {
  id: string;
  ja: string;
  en: string;
  serviceTypes?: { id: string; ja: string; en: string }[];
  moreHours?: string[];
};

export const categories: CategoryFixture[] = [
  {
    id: 'cafe',
    ja: 'カフェ',
    en: 'Cafe',
    serviceTypes: [{ id: 'job_type_id:coffee', ja: 'コーヒー', en: 'Coffee' }],
    moreHours: ['TAKEOUT', 'BREAKFAST', 'LUNCH'],
  },
  {
    id: 'coffee_shop',
    ja: 'コーヒーショップ',
    en: 'Coffee shop',
    moreHours: ['TAKEOUT', 'BREAKFAST'],
  },
  {
    id: 'bakery',
    ja: 'ベーカリー',
    en: 'Bakery',
    serviceTypes: [{ id: 'job_type_id:custom_cakes', ja: 'オーダーケーキ', en: 'Custom cakes' }],
    moreHours: ['TAKEOUT'],
  },
  { id: 'pastry_shop', ja: '洋菓子店', en: 'Pastry shop', moreHours: ['TAKEOUT'] },
  { id: 'dessert_shop', ja: 'デザートショップ', en: 'Dessert shop' },
  {
    id: 'restaurant',
    ja: 'レストラン',
    en: 'Restaurant',
    moreHours: ['LUNCH', 'DINNER', 'TAKEOUT', 'DELIVERY'],
  },
  {
    id: 'japanese_restaurant',
    ja: '和食店',
    en: 'Japanese restaurant',
    moreHours: ['LUNCH', 'DINNER'],
  },
  {
    id: 'ramen_restaurant',
    ja: 'ラーメン屋',
    en: 'Ramen restaurant',
    moreHours: ['LUNCH', 'DINNER', 'TAKEOUT'],
  },
  { id: 'noodle_shop', ja: '麺類店', en: 'Noodle shop', moreHours: ['LUNCH', 'DINNER'] },
  {
    id: 'sushi_restaurant',
    ja: '寿司店',
    en: 'Sushi restaurant',
    moreHours: ['LUNCH', 'DINNER', 'TAKEOUT'],
  },
  {
    id: 'izakaya_restaurant',
    ja: '居酒屋',
    en: 'Izakaya restaurant',
    moreHours: ['HAPPY_HOURS', 'DINNER'],
  },
  {
    id: 'yakiniku_restaurant',
    ja: '焼肉店',
    en: 'Yakiniku restaurant',
    moreHours: ['LUNCH', 'DINNER'],
  },
  {
    id: 'italian_restaurant',
    ja: 'イタリア料理店',
    en: 'Italian restaurant',
    moreHours: ['LUNCH', 'DINNER'],
  },
  {
    id: 'takeout_restaurant',
    ja: 'テイクアウト',
    en: 'Takeout restaurant',
    moreHours: ['TAKEOUT'],
  },
  { id: 'bar', ja: 'バー', en: 'Bar', moreHours: ['HAPPY_HOURS'] },
  { id: 'wine_bar', ja: 'ワインバー', en: 'Wine bar', moreHours: ['HAPPY_HOURS'] },
  {
    id: 'hair_salon',
    ja: '美容院',
    en: 'Hair salon',
    serviceTypes: [
      { id: 'job_type_id:haircut', ja: 'カット', en: 'Haircut' },
      { id: 'job_type_id:hair_coloring', ja: 'カラー', en: 'Hair coloring' },
    ],
  },
  { id: 'beauty_salon', ja: 'ビューティーサロン', en: 'Beauty salon' },
  { id: 'nail_salon', ja: 'ネイルサロン', en: 'Nail salon' },
  { id: 'barber_shop', ja: '理容室', en: 'Barber shop' },
  { id: 'massage_therapist', ja: 'マッサージ', en: 'Massage therapist' },
  { id: 'chiropractor', ja: 'カイロプラクティック', en: 'Chiropractor' },
  { id: 'dentist', ja: '歯科医院', en: 'Dentist' },
  { id: 'pharmacy', ja: '薬局', en: 'Pharmacy' },
  { id: 'gym', ja: 'スポーツジム', en: 'Gym' },
  { id: 'yoga_studio', ja: 'ヨガスタジオ', en: 'Yoga studio' },
  { id: 'clothing_store', ja: '衣料品店', en: 'Clothing store' },
  { id: 'florist', ja: '花屋', en: 'Florist' },
  { id: 'book_store', ja: '書店', en: 'Book store' },
  { id: 'gift_shop', ja: 'ギフトショップ', en: 'Gift shop' },
  { id: 'hotel', ja: 'ホテル', en: 'Hotel' },
  { id: 'real_estate_agency', ja: '不動産業者', en: 'Real estate agency' },
];

export const moreHoursNames: Record<string, { ja: string; en: string }> = {
  TAKEOUT: { ja: 'テイクアウト', en: 'Takeout' },
  DELIVERY: { ja: 'デリバリー', en: 'Delivery' },
  BREAKFAST: { ja: '朝食', en: 'Breakfast' },
  LUNCH: { ja: 'ランチ', en: 'Lunch' },
  DINNER: { ja: 'ディナー', en: 'Dinner' },
  HAPPY_HOURS: { ja: 'ハッピーアワー', en: 'Happy hours' },
};

export type GoogleUserFixture = {
  email: string;
  name: string;
  accountId: string;
  accountName: string;
};

export const googleUsers: GoogleUserFixture[] = [
  {
    email: 'shop@tenpo.example',
    name: 'Tenpo Demo Shop',
    accountId: '104772635510001234567',
    accountName: 'Tenpo Demo Shop',
  },
  {
    email: 'trial@tenpo.example',
    name: 'Trial User',
    accountId: '104772635510007654321',
    accountName: 'Trial User',
  },
  {
    email: 'newshop@tenpo.example',
    name: 'New Shop',
    accountId: '104772635510002468024',
    accountName: 'New Shop',
  },
  {
    email: 'empty@tenpo.example',
    name: 'No Locations',
    accountId: '104772635510001357913',
    accountName: 'No Locations',
  },
];

/**
 * Grants the demo stores hold from the start (README "Seeded grants"): a refresh token issued
 * to the sandbox client with business.manage, as if the Google user had consented once with
 * `access_type=offline`. They never expire (Google's refresh tokens of a published app do
 * not); revoking one ends it until the next reset. `locationId` is the listing the demo store
 * runs from this account.
 */
export type GoogleDemoGrant = {
  email: string;
  refreshToken: string;
  scope: string;
  locationId: string;
};

export const googleDemoGrants: readonly GoogleDemoGrant[] = [
  {
    email: 'shop@tenpo.example',
    refreshToken: '1//0eSandboxDemoGrant-shop-tenpo-example-business-manage',
    scope: 'https://www.googleapis.com/auth/business.manage openid email',
    locationId: '4821390157204861230',
  },
  {
    email: 'trial@tenpo.example',
    refreshToken: '1//0eSandboxDemoGrant-trial-tenpo-example-business-manage',
    scope: 'https://www.googleapis.com/auth/business.manage openid email',
    locationId: '5930178246613098001',
  },
];

type Day = 'MONDAY' | 'TUESDAY' | 'WEDNESDAY' | 'THURSDAY' | 'FRIDAY' | 'SATURDAY' | 'SUNDAY';
const DAYS: Day[] = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];
const time = (h: number, m = 0): Record<string, number> =>
  m ? { hours: h, minutes: m } : h ? { hours: h } : {};
const hours = (
  open: [number, number],
  close: [number, number],
  closed: Day[] = [],
  weekend?: { open: [number, number]; close: [number, number] },
) => ({
  periods: DAYS.filter((d) => !closed.includes(d)).map((d) => {
    const w = weekend && (d === 'SATURDAY' || d === 'SUNDAY') ? weekend : { open, close };
    return { openDay: d, openTime: time(...w.open), closeDay: d, closeTime: time(...w.close) };
  }),
});

export type LocationFixture = { id: string; accountId: string; location: Record<string, unknown> };

const loc = (p: {
  id: string;
  accountId: string;
  title: string;
  storeCode: string;
  phone: string;
  postalCode: string;
  locality: string;
  lines: string[];
  website: string;
  primary: string;
  additional: string[];
  regularHours: unknown;
  description: string;
  lat: number;
  lng: number;
  placeId: string;
  cid: string;
  opened: { year: number; month: number; day?: number };
}): LocationFixture => {
  const cat = (id: string) => {
    const c = categories.find((x) => x.id === id);
    return { name: `categories/gcid:${id}`, displayName: c?.ja ?? id };
  };
  return {
    id: p.id,
    accountId: p.accountId,
    location: {
      name: `locations/${p.id}`,
      languageCode: 'ja',
      storeCode: p.storeCode,
      title: p.title,
      phoneNumbers: { primaryPhone: p.phone },
      categories: { primaryCategory: cat(p.primary), additionalCategories: p.additional.map(cat) },
      storefrontAddress: {
        regionCode: 'JP',
        languageCode: 'ja',
        postalCode: p.postalCode,
        administrativeArea: '東京都',
        locality: p.locality,
        addressLines: p.lines,
      },
      websiteUri: p.website,
      regularHours: p.regularHours,
      latlng: { latitude: p.lat, longitude: p.lng },
      openInfo: { status: 'OPEN', canReopen: true, openingDate: p.opened },
      profile: { description: p.description },
      metadata: {
        mapsUri: `https://maps.google.com/maps?cid=${p.cid}`,
        newReviewUri: `https://search.google.com/local/writereview?placeid=${p.placeId}`,
        placeId: p.placeId,
        canDelete: true,
        canOperateLocalPost: true,
        canModifyServiceList: true,
        canOperateHealthData: false,
        canOperateLodgingData: false,
        canHaveFoodMenus: p.primary.includes('restaurant') || p.primary === 'cafe',
        canHaveBusinessCalls: true,
        hasVoiceOfMerchant: true,
      },
    },
  };
};

const SHOP = '104772635510001234567';
const TRIAL = '104772635510007654321';
const NEW = '104772635510002468024';

export const locationFixtures = (): LocationFixture[] => [
  loc({
    id: '4821390157204861230',
    accountId: SHOP,
    title: 'カフェ テンポ 渋谷店',
    storeCode: 'TENPO-001',
    phone: '03-6418-2201',
    postalCode: '150-0002',
    locality: '渋谷区',
    lines: ['渋谷2-21-1', '渋谷ヒカリエ 6F'],
    website: 'https://cafe-tenpo.example/shibuya',
    primary: 'cafe',
    additional: ['coffee_shop', 'dessert_shop'],
    regularHours: hours([8, 0], [21, 0], [], { open: [9, 0], close: [20, 0] }),
    description:
      '渋谷駅直結のスペシャルティコーヒーのカフェ。自家焙煎の豆と季節のケーキをご用意しています。Wi-Fi・電源あり。',
    lat: 35.659,
    lng: 139.7036,
    placeId: 'ChIJd8BlQ2BZwokRAFUEcm_qrcA',
    cid: '13876120385811452114',
    opened: { year: 2016, month: 4, day: 28 },
  }),
  loc({
    id: '4821390157204861231',
    accountId: SHOP,
    title: 'カフェ テンポ 吉祥寺店',
    storeCode: 'TENPO-002',
    phone: '0422-27-5512',
    postalCode: '180-0004',
    locality: '武蔵野市',
    lines: ['吉祥寺本町1-11-5', '1F'],
    website: 'https://cafe-tenpo.example/kichijoji',
    primary: 'cafe',
    additional: ['bakery'],
    regularHours: hours([9, 0], [20, 0], ['WEDNESDAY']),
    description:
      '井の頭公園のすぐそば。焼きたてのパンとハンドドリップコーヒーでゆっくりとした朝を。',
    lat: 35.7039,
    lng: 139.5797,
    placeId: 'ChIJ3TNl2WnuGGARQ3QvjX0mFZM',
    cid: '10597745026583213571',
    opened: { year: 2019, month: 10, day: 1 },
  }),
  loc({
    id: '4821390157204861232',
    accountId: SHOP,
    title: 'テンポ ベーカリー 自由が丘',
    storeCode: 'TENPO-003',
    phone: '03-5731-0840',
    postalCode: '152-0035',
    locality: '目黒区',
    lines: ['自由が丘1-29-3'],
    website: 'https://cafe-tenpo.example/bakery',
    primary: 'bakery',
    additional: ['pastry_shop', 'cafe'],
    regularHours: hours([7, 30], [19, 0], ['MONDAY']),
    description:
      '国産小麦と天然酵母のパン屋。毎朝7時半から焼きたてを並べています。イートインスペースあり。',
    lat: 35.6076,
    lng: 139.6688,
    placeId: 'ChIJ9z6G5_D0GGARj2bJ2cJ0xGk',
    cid: '7602140893124678112',
    opened: { year: 2021, month: 3, day: 15 },
  }),
  loc({
    id: '5930178246613098001',
    accountId: TRIAL,
    title: 'ヘアサロン はな 下北沢',
    storeCode: 'HANA-01',
    phone: '03-3466-7781',
    postalCode: '155-0031',
    locality: '世田谷区',
    lines: ['北沢2-14-7', 'シモキタビル 2F'],
    website: 'https://hana-salon.example',
    primary: 'hair_salon',
    additional: ['nail_salon'],
    regularHours: hours([10, 0], [20, 0], ['TUESDAY'], { open: [9, 0], close: [19, 0] }),
    description:
      '下北沢駅南口から徒歩3分。カット・カラー・ヘッドスパ。完全予約制の小さなサロンです。',
    lat: 35.6604,
    lng: 139.6681,
    placeId: 'ChIJp4JiUCNZwokRUGJ3n6QcZ1Q',
    cid: '3307448651902240961',
    opened: { year: 2018, month: 7, day: 7 },
  }),
  loc({
    id: '6104729583316724501',
    accountId: NEW,
    title: 'らーめん 一歩 新宿西口店',
    storeCode: 'IPPO-SJK',
    phone: '03-3348-2290',
    postalCode: '160-0023',
    locality: '新宿区',
    lines: ['西新宿1-12-4'],
    website: 'https://ramen-ippo.example/shinjuku',
    primary: 'ramen_restaurant',
    additional: ['noodle_shop', 'takeout_restaurant'],
    regularHours: hours([11, 0], [23, 0], [], { open: [11, 0], close: [24, 0] }),
    description: '鶏白湯と煮干しの二枚看板。深夜まで営業しています。',
    lat: 35.6912,
    lng: 139.6975,
    placeId: 'ChIJ1wXH8tKMGGARfHjHc_gYvYU',
    cid: '5521907034218892214',
    opened: { year: 2023, month: 11, day: 11 },
  }),
  loc({
    id: '6104729583316724502',
    accountId: NEW,
    title: 'らーめん 一歩 池袋東口店',
    storeCode: 'IPPO-IKB',
    phone: '03-5952-0117',
    postalCode: '170-0013',
    locality: '豊島区',
    lines: ['東池袋1-22-9'],
    website: 'https://ramen-ippo.example/ikebukuro',
    primary: 'ramen_restaurant',
    additional: ['noodle_shop'],
    regularHours: hours([11, 0], [22, 30], ['THURSDAY']),
    description: '池袋駅東口から徒歩2分。濃厚魚介つけ麺が人気です。',
    lat: 35.7295,
    lng: 139.7151,
    placeId: 'ChIJrVb5LHGNGGAR5rJ0bA6Hn3M',
    cid: '2290117744930015672',
    opened: { year: 2024, month: 6, day: 1 },
  }),
];
