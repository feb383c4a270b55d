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
    id: 'udon_noodle_restaurant',
    ja: 'うどん店',
    en: 'Udon noodle restaurant',
    moreHours: ['LUNCH', 'DINNER', 'TAKEOUT'],
  },
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
  { id: 'acupuncturist', ja: '鍼灸院', en: 'Acupuncturist' },
  { id: 'physical_therapy_clinic', ja: '理学療法クリニック', en: 'Physical therapy clinic' },
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
  /** The user's personal account (`accounts/…`); also the user's `sub`. */
  accountId: string;
  accountName: string;
  /**
   * Business accounts (location groups) the user owns. A company that runs several stores
   * keeps them in one, so accounts.list answers the personal account and these.
   */
  groups?: { accountId: string; accountName: string }[];
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
  {
    email: 'expired@tenpo.example',
    name: '上田 蓮',
    accountId: '104772635510005550123',
    accountName: '上田 蓮',
  },
  {
    email: 'payfail@tenpo.example',
    name: '岡田 美月',
    accountId: '104772635510008880456',
    accountName: '岡田 美月',
  },
  // The demo agency's clients: each company's own Google user, owning a location group with
  // the company's listings (connected or not in Tenpo).
  {
    email: 'gbp@minato-foods.example',
    name: 'ミナトフーズ 店舗運営部',
    accountId: '104772635510003300101',
    accountName: 'ミナトフーズ 店舗運営部',
    groups: [{ accountId: '116209384756110482301', accountName: '株式会社ミナトフーズ' }],
  },
  {
    email: 'info@sanukiya.example',
    name: 'さぬき屋 本部',
    accountId: '104772635510003300202',
    accountName: 'さぬき屋 本部',
    groups: [{ accountId: '116209384756120593402', accountName: '有限会社さぬき屋' }],
  },
  {
    email: 'salon@lumiere-hair.example',
    name: 'ルミエール 広報',
    accountId: '104772635510003300303',
    accountName: 'ルミエール 広報',
    groups: [{ accountId: '116209384756130614503', accountName: '株式会社ルミエール' }],
  },
  {
    email: 'contact@hogushian.example',
    name: 'ほぐし庵',
    accountId: '104772635510003300404',
    accountName: 'ほぐし庵',
    groups: [{ accountId: '116209384756140725604', accountName: 'ほぐし庵合同会社' }],
  },
  {
    email: 'web@fleur-flowers.example',
    name: 'フルール Web担当',
    accountId: '104772635510003300505',
    accountName: 'フルール Web担当',
    groups: [{ accountId: '116209384756150836705', accountName: 'フルール株式会社' }],
  },
];

/**
 * Grants the demo stores hold from the start (README "Seeded grants"): a refresh token issued
 * to the sandbox client with business.manage, as if the Google user had consented once with
 * `access_type=offline`. They never expire (Google's refresh tokens of a published app do
 * not); revoking one ends it, for every store that runs from it, until the next reset.
 * `stores` are the demo stores (by login) connected with this grant and the listing each
 * chose: a company's one Google user serves all of its stores, as at a real agency.
 */
export type GoogleDemoGrant = {
  email: string;
  refreshToken: string;
  scope: string;
  stores: readonly { store: string; locationId: string }[];
};

const DEMO_SCOPE = 'https://www.googleapis.com/auth/business.manage openid email';
const demoGrant = (
  email: string,
  refreshToken: string,
  stores: GoogleDemoGrant['stores'],
): GoogleDemoGrant => ({ email, refreshToken, scope: DEMO_SCOPE, stores });

export const googleDemoGrants: readonly GoogleDemoGrant[] = [
  demoGrant('shop@tenpo.example', '1//0eSandboxDemoGrant-shop-tenpo-example-business-manage', [
    { store: 'shop@tenpo.example', locationId: '4821390157204861230' },
  ]),
  demoGrant('trial@tenpo.example', '1//0eSandboxDemoGrant-trial-tenpo-example-business-manage', [
    { store: 'trial@tenpo.example', locationId: '5930178246613098001' },
  ]),
  demoGrant(
    'expired@tenpo.example',
    '1//0eSandboxDemoGrant-expired-tenpo-example-business-manage',
    [{ store: 'expired@tenpo.example', locationId: '7781536920475523301' }],
  ),
  demoGrant(
    'payfail@tenpo.example',
    '1//0eSandboxDemoGrant-payfail-tenpo-example-business-manage',
    [{ store: 'payfail@tenpo.example', locationId: '7892647031586634401' }],
  ),
  // 品川店 (store04) is in the group but not connected in Tenpo.
  demoGrant(
    'gbp@minato-foods.example',
    '1//0eSandboxDemoGrant-gbp-minato-foods-example-business-manage',
    [
      { store: 'leader@tenpo.example', locationId: '7215038469920417301' },
      { store: 'store02@tenpo.example', locationId: '7215038469920417302' },
      { store: 'store03@tenpo.example', locationId: '7215038469920417303' },
    ],
  ),
  demoGrant(
    'info@sanukiya.example',
    '1//0eSandboxDemoGrant-info-sanukiya-example-business-manage',
    [
      { store: 'store05@tenpo.example', locationId: '7346190582731165401' },
      { store: 'store06@tenpo.example', locationId: '7346190582731165402' },
      { store: 'store07@tenpo.example', locationId: '7346190582731165403' },
    ],
  ),
  // 自由が丘 (store09) is in the group but not connected in Tenpo.
  demoGrant(
    'salon@lumiere-hair.example',
    '1//0eSandboxDemoGrant-salon-lumiere-hair-example-business-manage',
    [{ store: 'store08@tenpo.example', locationId: '7458203697142290801' }],
  ),
  demoGrant(
    'contact@hogushian.example',
    '1//0eSandboxDemoGrant-contact-hogushian-example-business-manage',
    [{ store: 'store10@tenpo.example', locationId: '7569314708253301101' }],
  ),
  demoGrant(
    'web@fleur-flowers.example',
    '1//0eSandboxDemoGrant-web-fleur-flowers-example-business-manage',
    [{ store: 'store11@tenpo.example', locationId: '7670425819364412201' }],
  ),
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
  /** Prefecture; 東京都 unless given. */
  region?: string;
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
        administrativeArea: p.region ?? '東京都',
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
const EXPIRED = '104772635510005550123';
const PAYFAIL = '104772635510008880456';
const MINATO = '116209384756110482301';
const SANUKIYA = '116209384756120593402';
const LUMIERE = '116209384756130614503';
const HOGUSHIAN = '116209384756140725604';
const FLEUR = '116209384756150836705';

/** Tenpo Demo Shop's personal account: two cafés and a bakery. */
const shopLocations = (): LocationFixture[] => [
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
];

/** The other personal accounts: the trial user, New Shop (two), 上田 蓮 and 岡田 美月. */
const singleAccountLocations = (): LocationFixture[] => [
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
  loc({
    id: '7781536920475523301',
    accountId: EXPIRED,
    title: '上田生花店 三軒茶屋',
    storeCode: 'UEDA-01',
    phone: '03-3421-8702',
    postalCode: '154-0024',
    locality: '世田谷区',
    lines: ['三軒茶屋2-13-10'],
    website: 'https://ueda-seika.example',
    primary: 'florist',
    additional: ['gift_shop'],
    regularHours: hours([9, 30], [19, 30], ['WEDNESDAY']),
    description:
      '三軒茶屋駅から徒歩2分、創業25年の町の花屋です。季節の切り花、花束、アレンジメント、お供えの花をご用意します。配達も承ります。',
    lat: 35.6437,
    lng: 139.6706,
    placeId: 'ChIJx7Qm1f_zGGARr0cUe2n8KpA',
    cid: '8841025739164402217',
    opened: { year: 1998, month: 4, day: 1 },
  }),
  loc({
    id: '7892647031586634401',
    accountId: PAYFAIL,
    title: '岡田整骨院 下北沢',
    storeCode: 'OKADA-01',
    phone: '03-3468-9901',
    postalCode: '155-0031',
    locality: '世田谷区',
    lines: ['北沢2-29-2', '下北沢メディカルビル 2F'],
    website: 'https://okada-seikotsu.example',
    primary: 'chiropractor',
    additional: ['massage_therapist', 'acupuncturist'],
    regularHours: hours([9, 0], [20, 0], ['SUNDAY'], { open: [9, 0], close: [14, 0] }),
    description:
      '下北沢駅東口から徒歩3分。肩こり・腰痛・スポーツ外傷の施術、骨盤矯正、鍼灸。各種保険取扱い。土曜は14時まで。',
    lat: 35.6614,
    lng: 139.6674,
    placeId: 'ChIJa2V9kCNZwokR8d1xNf4LqWc',
    cid: '4475190328816652093',
    opened: { year: 2011, month: 7, day: 1 },
  }),
];

/** 株式会社ミナトフーズ: four cafés in one location group. */
const minatoLocations = (): LocationFixture[] => [
  loc({
    id: '7215038469920417301',
    accountId: MINATO,
    title: 'カフェ・ミナト 渋谷店',
    storeCode: 'MINATO-SBY',
    phone: '03-5459-3301',
    postalCode: '150-0043',
    locality: '渋谷区',
    lines: ['道玄坂2-6-12', 'ミナトビル 1F'],
    website: 'https://cafe-minato.example/shops/shibuya',
    primary: 'cafe',
    additional: ['coffee_shop', 'dessert_shop'],
    regularHours: hours([8, 0], [22, 0], [], { open: [9, 0], close: [21, 0] }),
    description:
      'カフェ・ミナトの1号店。渋谷駅から徒歩4分、モーニングからディナーまで。港町焙煎所の豆を使ったコーヒーと自家製スイーツ。',
    lat: 35.6585,
    lng: 139.6982,
    placeId: 'ChIJ5TmGqlWMGGARk3rF0w2bXzE',
    cid: '11904286630175532801',
    opened: { year: 2015, month: 9, day: 1 },
  }),
  loc({
    id: '7215038469920417302',
    accountId: MINATO,
    title: 'カフェ・ミナト 新宿店',
    storeCode: 'MINATO-SJK',
    phone: '03-3356-7702',
    postalCode: '160-0022',
    locality: '新宿区',
    lines: ['新宿3-24-3', '新宿ミナトビル 2F'],
    website: 'https://cafe-minato.example/shops/shinjuku',
    primary: 'cafe',
    additional: ['coffee_shop'],
    regularHours: hours([7, 30], [22, 30], [], { open: [9, 0], close: [22, 0] }),
    description:
      '新宿駅東口から徒歩3分。朝7時半から営業、電源とWi-Fiを備えた全80席。テイクアウトも承ります。',
    lat: 35.6917,
    lng: 139.702,
    placeId: 'ChIJ9fB2zNiMGGARq1bW7c4pRk0',
    cid: '11904286630175532802',
    opened: { year: 2017, month: 4, day: 12 },
  }),
  loc({
    id: '7215038469920417303',
    accountId: MINATO,
    title: 'カフェ・ミナト 池袋店',
    storeCode: 'MINATO-IKB',
    phone: '03-5954-8803',
    postalCode: '171-0021',
    locality: '豊島区',
    lines: ['西池袋1-15-9', '2F'],
    website: 'https://cafe-minato.example/shops/ikebukuro',
    primary: 'cafe',
    additional: ['coffee_shop', 'dessert_shop'],
    regularHours: hours([8, 0], [21, 0]),
    description: '池袋駅西口すぐ。季節のフルーツを使ったパフェとハンドドリップコーヒーが人気です。',
    lat: 35.7303,
    lng: 139.709,
    placeId: 'ChIJm0h4Vm2NGGARz6pQa9Yt3sE',
    cid: '11904286630175532803',
    opened: { year: 2018, month: 11, day: 20 },
  }),
  loc({
    id: '7215038469920417304',
    accountId: MINATO,
    title: 'カフェ・ミナト 品川店',
    storeCode: 'MINATO-SGW',
    phone: '03-6712-4404',
    postalCode: '108-0075',
    locality: '港区',
    lines: ['港南2-5-3', '品川港南ビル 1F'],
    website: 'https://cafe-minato.example/shops/shinagawa',
    primary: 'cafe',
    additional: ['coffee_shop'],
    regularHours: hours([7, 0], [21, 0], ['SUNDAY'], { open: [8, 0], close: [18, 0] }),
    description:
      '品川駅港南口から徒歩2分のオフィス街のカフェ。朝7時からモーニングセット、平日ランチはサンドイッチとスープ。',
    lat: 35.6277,
    lng: 139.7413,
    placeId: 'ChIJ7cRk0lqLGGARc4jT2x8nWqU',
    cid: '11904286630175532804',
    opened: { year: 2021, month: 2, day: 8 },
  }),
];

/** 有限会社さぬき屋: three udon shops in Kansai. */
const sanukiyaLocations = (): LocationFixture[] => [
  loc({
    id: '7346190582731165401',
    accountId: SANUKIYA,
    title: 'うどん処 さぬき屋 梅田店',
    storeCode: 'SANUKI-UMD',
    phone: '06-6372-5501',
    postalCode: '530-0012',
    region: '大阪府',
    locality: '大阪市北区',
    lines: ['芝田1-6-12', '梅田さぬきビル 1F'],
    website: 'https://sanukiya.example/umeda',
    primary: 'udon_noodle_restaurant',
    additional: ['japanese_restaurant', 'noodle_shop'],
    regularHours: hours([10, 30], [22, 0]),
    description:
      '香川から直送の小麦で毎朝打つ讃岐うどん。梅田駅から徒歩3分、揚げたての天ぷらと釜揚げうどんをどうぞ。',
    lat: 34.7052,
    lng: 135.4983,
    placeId: 'ChIJ0b3q9H3mAGARp8sK1vQ2yLM',
    cid: '16120457793218864011',
    opened: { year: 2009, month: 6, day: 1 },
  }),
  loc({
    id: '7346190582731165402',
    accountId: SANUKIYA,
    title: 'うどん処 さぬき屋 難波店',
    storeCode: 'SANUKI-NMB',
    phone: '06-6641-5502',
    postalCode: '542-0076',
    region: '大阪府',
    locality: '大阪市中央区',
    lines: ['難波4-3-18'],
    website: 'https://sanukiya.example/namba',
    primary: 'udon_noodle_restaurant',
    additional: ['japanese_restaurant'],
    regularHours: hours([11, 0], [23, 0], [], { open: [10, 30], close: [22, 0] }),
    description:
      'なんば駅から徒歩2分。名物のかすうどんと肉うどん、夜は一品料理とお酒も楽しめます。',
    lat: 34.6649,
    lng: 135.5013,
    placeId: 'ChIJh2Qn8FTnAGARw4eR6tJ0mXg',
    cid: '16120457793218864012',
    opened: { year: 2012, month: 3, day: 15 },
  }),
  loc({
    id: '7346190582731165403',
    accountId: SANUKIYA,
    title: 'うどん処 さぬき屋 三宮店',
    storeCode: 'SANUKI-SNM',
    phone: '078-391-5503',
    postalCode: '650-0021',
    region: '兵庫県',
    locality: '神戸市中央区',
    lines: ['三宮町1-8-3', 'B1F'],
    website: 'https://sanukiya.example/sannomiya',
    primary: 'udon_noodle_restaurant',
    additional: ['noodle_shop', 'takeout_restaurant'],
    regularHours: hours([11, 0], [21, 0], ['TUESDAY']),
    description: '三宮センター街の地下。コシの強い讃岐うどんと季節の炊き込みご飯のセットが人気。',
    lat: 34.692,
    lng: 135.1936,
    placeId: 'ChIJ3v1cUoOOAGARt9kM2bZ7qHs',
    cid: '16120457793218864013',
    opened: { year: 2016, month: 10, day: 1 },
  }),
];

/** The other agency clients' groups: 株式会社ルミエール (two salons), ほぐし庵, フルール. */
const salonAndShopLocations = (): LocationFixture[] => [
  loc({
    id: '7458203697142290801',
    accountId: LUMIERE,
    title: 'ヘアサロン ルミエール 表参道',
    storeCode: 'LUMIERE-OMT',
    phone: '03-5775-6601',
    postalCode: '150-0001',
    locality: '渋谷区',
    lines: ['神宮前4-26-18', '原宿ピアザビル 3F'],
    website: 'https://lumiere-hair.example/omotesando',
    primary: 'hair_salon',
    additional: ['beauty_salon'],
    regularHours: hours([10, 0], [20, 0], ['TUESDAY'], { open: [9, 0], close: [19, 0] }),
    description:
      '表参道駅A2出口から徒歩4分。透明感カラーと髪質改善トリートメントが得意なサロンです。ご予約はWebから。',
    lat: 35.668,
    lng: 139.707,
    placeId: 'ChIJQ8bX4o6MGGARn5tV1cK9wPo',
    cid: '9931704825563310781',
    opened: { year: 2014, month: 5, day: 10 },
  }),
  loc({
    id: '7458203697142290802',
    accountId: LUMIERE,
    title: 'ヘアサロン ルミエール 自由が丘',
    storeCode: 'LUMIERE-JGO',
    phone: '03-5701-6602',
    postalCode: '152-0035',
    locality: '目黒区',
    lines: ['自由が丘2-10-4', '2F'],
    website: 'https://lumiere-hair.example/jiyugaoka',
    primary: 'hair_salon',
    additional: ['beauty_salon', 'nail_salon'],
    regularHours: hours([10, 0], [19, 0], ['TUESDAY']),
    description: '自由が丘駅正面口から徒歩3分。ヘアとネイルを一度に。キッズスペースあり。',
    lat: 35.6072,
    lng: 139.6697,
    placeId: 'ChIJf1nW8Pr0GGARk2mC7yV5bTs',
    cid: '9931704825563310782',
    opened: { year: 2019, month: 9, day: 1 },
  }),
  loc({
    id: '7569314708253301101',
    accountId: HOGUSHIAN,
    title: '整体院 ほぐし庵 横浜',
    storeCode: 'HOGUSHI-YKH',
    phone: '045-312-7701',
    postalCode: '220-0005',
    region: '神奈川県',
    locality: '横浜市西区',
    lines: ['南幸2-8-20', 'SMビル 4F'],
    website: 'https://hogushian.example',
    // 整体 and 鍼灸 by licensed practitioners: advertised under the medical rules (ADR 0089).
    primary: 'chiropractor',
    additional: ['massage_therapist', 'acupuncturist'],
    regularHours: hours([10, 0], [21, 0], ['THURSDAY'], { open: [10, 0], close: [19, 0] }),
    description:
      '横浜駅西口から徒歩5分。国家資格者による整体と鍼灸で、肩こり・腰痛・産後の骨盤矯正に対応します。完全予約制。',
    lat: 35.465,
    lng: 139.619,
    placeId: 'ChIJv6cE2zNcGGARs8hD4qX1nJk',
    cid: '2758819340661027734',
    opened: { year: 2020, month: 4, day: 1 },
  }),
  loc({
    id: '7670425819364412201',
    accountId: FLEUR,
    title: '花屋 フルール 吉祥寺',
    storeCode: 'FLEUR-KCJ',
    phone: '0422-21-8701',
    postalCode: '180-0004',
    locality: '武蔵野市',
    lines: ['吉祥寺本町2-4-16'],
    website: 'https://fleur-flowers.example',
    primary: 'florist',
    additional: ['gift_shop'],
    regularHours: hours([10, 0], [20, 0]),
    description:
      '吉祥寺駅北口から徒歩5分。フランス風のブーケとドライフラワー、ウェディングやお祝いのスタンド花も承ります。',
    lat: 35.705,
    lng: 139.577,
    placeId: 'ChIJ8pL3a2nuGGARy0fT5cB6hQw',
    cid: '6603187459920014452',
    opened: { year: 2017, month: 3, day: 3 },
  }),
];

export const locationFixtures = (): LocationFixture[] => [
  ...shopLocations(),
  ...singleAccountLocations(),
  ...minatoLocations(),
  ...sanukiyaLocations(),
  ...salonAndShopLocations(),
];

// ---- Reviews (v4 accounts.locations.reviews; google.v4-reviews-seed.ts draws them) -----------

/** What a customer writes about a kind of business, by how the visit went. */
export type ReviewTexts = { good: string[]; mixed: string[]; bad: string[]; photoLabels: string[] };

/** The kind of business a location is, from its primary category (`categories/gcid:…`). */
export const reviewKindOf = (primaryCategory: string): keyof typeof reviewTexts => {
  const id = primaryCategory.replace(/^categories\/gcid:/, '');
  if (/cafe|coffee|dessert/.test(id)) return 'cafe';
  if (/bakery|pastry/.test(id)) return 'bakery';
  if (/ramen/.test(id)) return 'ramen';
  if (/udon|noodle/.test(id)) return 'udon';
  if (/hair|beauty|nail|barber/.test(id)) return 'salon';
  if (/florist/.test(id)) return 'florist';
  if (/chiropractor|massage|acupunct|physical_therapy/.test(id)) return 'bodycare';
  return 'general';
};

export const reviewTexts = {
  cafe: {
    good: [
      'スタッフの方の対応がとても丁寧で、居心地の良いお店でした。また伺います。',
      'ハンドドリップのコーヒーが香り高くて美味しかったです。季節のケーキもおすすめです。',
      'Wi-Fiと電源があるので作業にぴったり。平日の午前中は空いていて快適でした。',
      'ランチのセットがお得で美味しかったです。パンも自家製とのこと。',
      '窓際の席から街を眺めながらゆっくり過ごせました。ラテアートが可愛いです。',
      '友人の誕生日に利用しました。メッセージプレートに対応していただき感謝しています。',
      '豆の種類が多く、好みを伝えたら丁寧に選んでくださいました。',
    ],
    mixed: [
      '味は美味しいのですが、週末は混んでいて30分ほど待ちました。',
      '雰囲気は良いですが、席の間隔が狭く隣の会話が気になりました。',
      'コーヒーは美味しいです。ただ価格はやや高めだと思います。',
    ],
    bad: [
      '注文してから提供まで20分以上かかり、説明もありませんでした。',
      '店員さんの態度が冷たく、残念な気持ちになりました。',
      'テーブルが汚れたままで、衛生面が気になりました。',
    ],
    photoLabels: ['季節のケーキ', 'カフェラテ', '店内の様子'],
  },
  bakery: {
    good: [
      'クロワッサンがサクサクで絶品。朝早くから開いているのも助かります。',
      '食パンがもちもちで家族に好評です。予約しておくと確実に買えます。',
      '季節限定のいちごのデニッシュが美味しかったです。店内もいい香り。',
      'イートインでコーヒーと一緒にいただきました。どれも丁寧な味です。',
    ],
    mixed: [
      '美味しいけれど、夕方には人気の商品が売り切れていることが多いです。',
      '種類が豊富で迷います。レジが一台なので少し並びました。',
    ],
    bad: [
      '買ったサンドイッチのパンが乾燥していて残念でした。',
      '予約していた商品が用意されておらず、待たされました。',
    ],
    photoLabels: ['クロワッサン', '食パン', 'ショーケース'],
  },
  ramen: {
    good: [
      '濃厚な豚骨スープに細麺がよく絡んで最高でした。替え玉は必須です。',
      '深夜まで営業していて助かります。味玉に味がしっかり染みていました。',
      '店員さんの威勢がよく、気持ちよく食事できました。チャーシューが柔らかい。',
      '醤油ラーメンのスープがすっきりしていて、最後まで飲み干しました。',
    ],
    mixed: [
      '美味しいですが、少し塩辛く感じました。お昼どきは行列です。',
      'カウンターのみで狭いです。味は普通に美味しいです。',
    ],
    bad: [
      '麺が伸びていて、スープもぬるかったです。',
      '食券機の使い方が分かりにくく、店員さんも不親切でした。',
    ],
    photoLabels: ['豚骨ラーメン', '味玉ラーメン'],
  },
  udon: {
    good: [
      'コシのある麺と出汁の香りが素晴らしい。かけうどんで十分満足です。',
      '天ぷらが揚げたてでサクサク。値段も手頃で通いたくなります。',
      '釜玉うどんが絶品でした。回転が早いので昼休みでも安心です。',
      '出汁まで飲み干せる優しい味。子連れでも入りやすいお店です。',
    ],
    mixed: [
      '麺は美味しいですが、天ぷらが少し冷めていました。',
      'お昼のピークは席の確保が大変です。味には満足しています。',
    ],
    bad: [
      '麺が柔らかすぎてコシがありませんでした。',
      '注文を間違えられ、作り直しにも時間がかかりました。',
    ],
    photoLabels: ['釜玉うどん', 'かしわ天'],
  },
  salon: {
    good: [
      'カウンセリングが丁寧で、イメージ通りの仕上がりになりました。',
      'カラーの色味がとても綺麗で、友人にも褒められました。',
      'スタイリストさんが話しやすく、リラックスして過ごせました。',
      'ヘッドスパが気持ちよくて、思わず眠ってしまいました。',
    ],
    mixed: [
      '仕上がりは良いのですが、予約時間から15分ほど待ちました。',
      '技術は確かですが、料金がもう少し分かりやすいと嬉しいです。',
    ],
    bad: [
      '希望より短く切られてしまい、とても残念です。',
      '施術中のスタッフ同士の私語が気になりました。',
    ],
    photoLabels: ['仕上がり'],
  },
  florist: {
    good: [
      '予算を伝えただけで、素敵な花束を作っていただきました。',
      '母の日のアレンジメントが届いて、母がとても喜んでいました。',
      'お花が長持ちします。お手入れの方法も教えていただきました。',
    ],
    mixed: [
      '素敵なお花ですが、ラッピングに時間がかかりました。',
      '品揃えは良いですが、駐車場がないのが不便です。',
    ],
    bad: [
      '配達をお願いしたお花がしおれていました。',
      '電話で注文した内容と違うアレンジが届きました。',
    ],
    photoLabels: ['花束', 'アレンジメント'],
  },
  bodycare: {
    good: [
      '長年の肩こりが楽になりました。説明も丁寧で安心できます。',
      '腰痛で通っていますが、毎回しっかり体の状態を見てくださいます。',
      '予約が取りやすく、仕事帰りに通えるのが助かります。',
    ],
    mixed: [
      '施術は良いのですが、待合室が少し狭いです。',
      '効果は感じますが、通う回数の説明がもう少し欲しかったです。',
    ],
    bad: ['施術のあと、かえって痛みが出てしまいました。', '予約していたのに30分待たされました。'],
    photoLabels: [],
  },
  general: {
    good: [
      'スタッフの皆さんが親切で、気持ちよく利用できました。',
      '駅から近くて便利です。また利用したいと思います。',
    ],
    mixed: ['悪くはないですが、もう少し待ち時間が短いと嬉しいです。'],
    bad: ['説明が不十分で、分かりにくかったです。'],
    photoLabels: ['店内'],
  },
} satisfies Record<string, ReviewTexts>;

/** Reviewers' names as Google shows them (real names, some romanised). */
export const reviewerNames = [
  '佐藤 花子',
  '鈴木 一郎',
  'Tanaka K',
  '高橋 美咲',
  '伊藤 健',
  '渡辺 さくら',
  '山本 大輔',
  '中村 あゆみ',
  '小林 翔太',
  '加藤 由美',
  'Yuki S',
  '吉田 拓也',
  '山田 恵',
  '松本 涼',
  '井上 真理子',
  '木村 颯',
  '林 千尋',
  '清水 直樹',
];

/** The owner's replies seeded as already sent: thanks for a good visit, an apology otherwise. */
export const ownerReplies = {
  good: [
    'ご来店ありがとうございました。またのお越しを心よりお待ちしております。',
    '嬉しいお言葉をありがとうございます。スタッフ一同の励みになります。',
  ],
  bad: [
    '貴重なご意見をありがとうございます。ご指摘の点はスタッフで共有し、改善に努めてまいります。',
    'この度はご不便をおかけし申し訳ございませんでした。いただいたご意見を今後に活かしてまいります。',
  ],
};

/**
 * How many reviews a location starts with; a location not listed gets 3 to 12 (drawn from its
 * id). らーめん 一歩 池袋東口店 opened lately and has none yet (reviews.list answers `{}`).
 */
export const reviewSeedCounts: Record<string, number> = {
  '4821390157204861230': 24, // カフェ テンポ 渋谷店 (shop@tenpo.example's connected listing)
  '4821390157204861231': 14,
  '4821390157204861232': 10,
  '6104729583316724502': 0,
};

/**
 * A seeded reply Google rejected (its newest replied review), with the PolicyViolation value
 * Google gave: a promotional reply on an agency client's listing, to show a rejected reply.
 */
export const rejectedReplySeeds: Record<string, { comment: string; policyViolation: string }> = {
  '7215038469920417302': {
    comment: '当店は地域No.1の人気カフェです！今なら全品10%オフ、ぜひまたお越しください。',
    policyViolation: 'ADVERTISING_AND_SOLICITATION',
  },
};
