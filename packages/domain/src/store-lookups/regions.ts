/**
 * The administrative-area choice lists of the core-information form (spec 2 §5: a choice list
 * when regionCode is JP or VN, free text otherwise), spelt as Google's Location
 * `storefrontAddress.administrativeArea` takes them.
 */

/** Region codes (CLDR, as Google's `regionCode`) whose administrative area is a choice list. */
export const CHOICE_REGIONS = ['JP', 'VN'] as const;
export type ChoiceRegion = (typeof CHOICE_REGIONS)[number];

/** The 47 prefectures in JIS X 0401 code order (01 北海道 … 47 沖縄県), names in Japanese. */
export const JP_PREFECTURES = [
  '北海道',
  '青森県',
  '岩手県',
  '宮城県',
  '秋田県',
  '山形県',
  '福島県',
  '茨城県',
  '栃木県',
  '群馬県',
  '埼玉県',
  '千葉県',
  '東京都',
  '神奈川県',
  '新潟県',
  '富山県',
  '石川県',
  '福井県',
  '山梨県',
  '長野県',
  '岐阜県',
  '静岡県',
  '愛知県',
  '三重県',
  '滋賀県',
  '京都府',
  '大阪府',
  '兵庫県',
  '奈良県',
  '和歌山県',
  '鳥取県',
  '島根県',
  '岡山県',
  '広島県',
  '山口県',
  '徳島県',
  '香川県',
  '愛媛県',
  '高知県',
  '福岡県',
  '佐賀県',
  '長崎県',
  '熊本県',
  '大分県',
  '宮崎県',
  '鹿児島県',
  '沖縄県',
] as const;

/**
 * Viet Nam's 34 provincial-level units in force since 1 July 2025 (Resolution 202/2025/QH15:
 * 6 centrally-run cities and 28 provinces), by their administrative code, names in Vietnamese
 * without the "Tỉnh"/"Thành phố" prefix. ADR 0044 says why the post-2025 list.
 */
export const VN_PROVINCES: readonly (readonly [code: string, name: string])[] = [
  ['01', 'Hà Nội'],
  ['04', 'Cao Bằng'],
  ['08', 'Tuyên Quang'],
  ['11', 'Điện Biên'],
  ['12', 'Lai Châu'],
  ['14', 'Sơn La'],
  ['15', 'Lào Cai'],
  ['19', 'Thái Nguyên'],
  ['20', 'Lạng Sơn'],
  ['22', 'Quảng Ninh'],
  ['24', 'Bắc Ninh'],
  ['25', 'Phú Thọ'],
  ['31', 'Hải Phòng'],
  ['33', 'Hưng Yên'],
  ['37', 'Ninh Bình'],
  ['38', 'Thanh Hóa'],
  ['40', 'Nghệ An'],
  ['42', 'Hà Tĩnh'],
  ['44', 'Quảng Trị'],
  ['46', 'Huế'],
  ['48', 'Đà Nẵng'],
  ['51', 'Quảng Ngãi'],
  ['52', 'Gia Lai'],
  ['56', 'Khánh Hòa'],
  ['66', 'Đắk Lắk'],
  ['68', 'Lâm Đồng'],
  ['75', 'Đồng Nai'],
  ['79', 'Hồ Chí Minh'],
  ['80', 'Tây Ninh'],
  ['82', 'Đồng Tháp'],
  ['86', 'Vĩnh Long'],
  ['91', 'An Giang'],
  ['92', 'Cần Thơ'],
  ['96', 'Cà Mau'],
];

export type AdministrativeArea = { region_code: ChoiceRegion; code: string; name: string };

/** The choice list of one region, or of both (JP first) when none is named. */
export function administrativeAreas(region?: ChoiceRegion): AdministrativeArea[] {
  const jp = JP_PREFECTURES.map(
    (name, i): AdministrativeArea => ({
      region_code: 'JP',
      code: String(i + 1).padStart(2, '0'),
      name,
    }),
  );
  const vn = VN_PROVINCES.map(
    ([code, name]): AdministrativeArea => ({ region_code: 'VN', code, name }),
  );
  if (region === 'JP') return jp;
  if (region === 'VN') return vn;
  return [...jp, ...vn];
}

/**
 * A Japanese postal code as typed (`1500002`, `150-0002`, full-width digits or hyphen) as its 7
 * digits, or null when it is not one.
 */
export function postalDigits(input: string): string | null {
  const s = input
    .normalize('NFKC')
    .trim()
    .replace(/[‐‑‒–—―−ー]/g, '-');
  const m = /^(\d{3})-?(\d{4})$/.exec(s);
  return m ? `${m[1]}${m[2]}` : null;
}

/** 7 digits shown as Japan Post writes them: 150-0002. */
export const postalShown = (digits: string) => `${digits.slice(0, 3)}-${digits.slice(3)}`;
