import type { FastifyInstance, FastifyRequest } from 'fastify';
import { field, PathRouter, queryLists } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { authenticate } from './google.auth';
import { badRequest, notFound, permissionDenied, unknownPath } from './google.errors';
import { decodePage, encodePage, intParam } from './google.business';
import { locationFixtures } from './google.fixtures';
import type { GoogleState } from './google.state';

const SERVICE = 'businessprofileperformance.googleapis.com';

export const DAILY_METRICS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
  'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
  'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
  'BUSINESS_CONVERSATIONS',
  'BUSINESS_DIRECTION_REQUESTS',
  'CALL_CLICKS',
  'WEBSITE_CLICKS',
  'BUSINESS_BOOKINGS',
  'BUSINESS_FOOD_ORDERS',
  'BUSINESS_FOOD_MENU_CLICKS',
] as const;
type Metric = (typeof DAILY_METRICS)[number];

// ---- deterministic randomness ------------------------------------------------------------
const fnv = (s: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
};
const rng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
/** A Poisson draw, so small expectations give realistic runs of zeros. */
const poisson = (lambda: number, r: () => number): number => {
  if (lambda <= 0) return 0;
  if (lambda > 40)
    return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * (r() + r() + r() - 1.5) * 2));
  const l = Math.exp(-lambda);
  let k = 0;
  let p = 1;
  do {
    k += 1;
    p *= r();
  } while (p > l);
  return k - 1;
};

type Kind = 'cafe' | 'bakery' | 'salon' | 'ramen' | 'udon' | 'bodywork' | 'florist' | 'generic';
const kindOf = (locationId: string): Kind => {
  const cat = String(
    (
      (locationFixtures().find((l) => l.id === locationId)?.location.categories as Record<
        string,
        { name?: string }
      >) ?? {}
    ).primaryCategory?.name ?? '',
  );
  if (cat.endsWith(':cafe') || cat.endsWith(':coffee_shop')) return 'cafe';
  if (cat.endsWith(':bakery')) return 'bakery';
  if (cat.endsWith(':hair_salon')) return 'salon';
  if (cat.includes('udon')) return 'udon';
  if (/:(massage_therapist|chiropractor|acupuncturist)$/.test(cat)) return 'bodywork';
  if (cat.endsWith(':florist')) return 'florist';
  if (cat.includes('ramen') || cat.includes('restaurant')) return 'ramen';
  return 'generic';
};

/** Expected daily counts of a typical store of each kind, before rhythm, season and growth. */
const BASE: Record<Kind, Record<Metric, number>> = {
  cafe: {
    BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 14,
    BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 32,
    BUSINESS_IMPRESSIONS_MOBILE_MAPS: 95,
    BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 130,
    BUSINESS_CONVERSATIONS: 0.1,
    BUSINESS_DIRECTION_REQUESTS: 11,
    CALL_CLICKS: 2.2,
    WEBSITE_CLICKS: 6,
    BUSINESS_BOOKINGS: 0,
    BUSINESS_FOOD_ORDERS: 0.3,
    BUSINESS_FOOD_MENU_CLICKS: 3.5,
  },
  bakery: {
    BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 8,
    BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 18,
    BUSINESS_IMPRESSIONS_MOBILE_MAPS: 70,
    BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 85,
    BUSINESS_CONVERSATIONS: 0.05,
    BUSINESS_DIRECTION_REQUESTS: 8,
    CALL_CLICKS: 1.6,
    WEBSITE_CLICKS: 3.5,
    BUSINESS_BOOKINGS: 0,
    BUSINESS_FOOD_ORDERS: 0.2,
    BUSINESS_FOOD_MENU_CLICKS: 1.2,
  },
  salon: {
    BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 5,
    BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 22,
    BUSINESS_IMPRESSIONS_MOBILE_MAPS: 35,
    BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 60,
    BUSINESS_CONVERSATIONS: 0.2,
    BUSINESS_DIRECTION_REQUESTS: 3,
    CALL_CLICKS: 2.8,
    WEBSITE_CLICKS: 5,
    BUSINESS_BOOKINGS: 1.2,
    BUSINESS_FOOD_ORDERS: 0,
    BUSINESS_FOOD_MENU_CLICKS: 0,
  },
  ramen: {
    BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 20,
    BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 28,
    BUSINESS_IMPRESSIONS_MOBILE_MAPS: 160,
    BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 150,
    BUSINESS_CONVERSATIONS: 0.05,
    BUSINESS_DIRECTION_REQUESTS: 19,
    CALL_CLICKS: 1.5,
    WEBSITE_CLICKS: 3,
    BUSINESS_BOOKINGS: 0,
    BUSINESS_FOOD_ORDERS: 0.9,
    BUSINESS_FOOD_MENU_CLICKS: 6,
  },
  udon: {
    BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 12,
    BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 22,
    BUSINESS_IMPRESSIONS_MOBILE_MAPS: 125,
    BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 110,
    BUSINESS_CONVERSATIONS: 0.03,
    BUSINESS_DIRECTION_REQUESTS: 15,
    CALL_CLICKS: 1.2,
    WEBSITE_CLICKS: 2.5,
    BUSINESS_BOOKINGS: 0,
    BUSINESS_FOOD_ORDERS: 0.6,
    BUSINESS_FOOD_MENU_CLICKS: 4.5,
  },
  bodywork: {
    BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 4,
    BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 18,
    BUSINESS_IMPRESSIONS_MOBILE_MAPS: 28,
    BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 48,
    BUSINESS_CONVERSATIONS: 0.15,
    BUSINESS_DIRECTION_REQUESTS: 2.5,
    CALL_CLICKS: 3.2,
    WEBSITE_CLICKS: 4.5,
    BUSINESS_BOOKINGS: 0.9,
    BUSINESS_FOOD_ORDERS: 0,
    BUSINESS_FOOD_MENU_CLICKS: 0,
  },
  florist: {
    BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 5,
    BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 15,
    BUSINESS_IMPRESSIONS_MOBILE_MAPS: 40,
    BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 55,
    BUSINESS_CONVERSATIONS: 0.1,
    BUSINESS_DIRECTION_REQUESTS: 4,
    CALL_CLICKS: 2.4,
    WEBSITE_CLICKS: 3,
    BUSINESS_BOOKINGS: 0,
    BUSINESS_FOOD_ORDERS: 0,
    BUSINESS_FOOD_MENU_CLICKS: 0,
  },
  generic: {
    BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 8,
    BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 20,
    BUSINESS_IMPRESSIONS_MOBILE_MAPS: 50,
    BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 70,
    BUSINESS_CONVERSATIONS: 0.1,
    BUSINESS_DIRECTION_REQUESTS: 5,
    CALL_CLICKS: 2,
    WEBSITE_CLICKS: 4,
    BUSINESS_BOOKINGS: 0.2,
    BUSINESS_FOOD_ORDERS: 0,
    BUSINESS_FOOD_MENU_CLICKS: 0,
  },
};
/** Monday … Sunday. */
const WEEK: Record<Kind, number[]> = {
  cafe: [0.85, 0.86, 0.88, 0.92, 1.05, 1.32, 1.22],
  bakery: [0.3, 0.95, 0.95, 0.98, 1.05, 1.35, 1.3],
  salon: [0.9, 0.25, 0.95, 1.0, 1.1, 1.45, 1.3],
  ramen: [0.9, 0.92, 0.95, 1.0, 1.2, 1.3, 1.1],
  udon: [1.0, 1.0, 1.0, 1.0, 1.05, 1.2, 1.05],
  bodywork: [1.1, 1.0, 1.0, 0.95, 1.05, 1.25, 0.75],
  florist: [0.85, 0.9, 0.9, 0.95, 1.1, 1.3, 1.15],
  generic: [1, 1, 1, 1, 1.05, 1.1, 0.9],
};
/** January … December: the dip of February, cherry blossoms, Golden Week, Obon, year end. */
const SEASON = [0.93, 0.84, 1.04, 1.12, 1.06, 0.9, 0.98, 1.07, 0.95, 1.0, 1.03, 1.16];

export const jstToday = (nowMs: number): { year: number; month: number; day: number } => {
  const d = new Date(nowMs + 9 * 3600_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};
const dayNumber = (y: number, m: number, d: number): number =>
  Math.floor(Date.UTC(y, m - 1, d) / 86400_000);
const fromDayNumber = (n: number) => {
  const d = new Date(n * 86400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/** First day with data: 25 months before today (Asia/Tokyo). */
export function dataWindow(nowMs: number): { first: number; last: number } {
  const t = jstToday(nowMs);
  const firstMonth = new Date(Date.UTC(t.year, t.month - 1 - 25, 1));
  return {
    first: Math.floor(firstMonth.getTime() / 86400_000),
    last: dayNumber(t.year, t.month, t.day) - 1,
  };
}

/** The count of one metric on one day for one location; the same inputs always give the same number. */
export function dailyValue(locationId: string, metric: Metric, day: number): number {
  const kind = kindOf(locationId);
  const size = 0.7 + (fnv(`size|${locationId}`) % 1000) / 1000; // 0.7 – 1.7 × the typical store
  const { year, month, day: dom } = fromDayNumber(day);
  const dow = (new Date(day * 86400_000).getUTCDay() + 6) % 7;
  const anchor = dayNumber(2023, 1, 1);
  const growth = 1 + 0.16 * ((day - anchor) / 365);
  let holiday = 1;
  if (month === 1 && dom <= 3) holiday = 0.55;
  else if (month === 5 && dom >= 3 && dom <= 5) holiday = 1.3;
  // Mother's Day week (the second Sunday of May falls on the 8th–14th).
  else if (kind === 'florist' && month === 5 && dom >= 7 && dom <= 14) holiday = 1.7;
  else if (month === 8 && dom >= 13 && dom <= 16) holiday = 1.2;
  else if (month === 12 && (dom === 24 || dom === 25))
    holiday = kind === 'bakery' || kind === 'cafe' || kind === 'florist' ? 1.45 : 1.1;
  else if (month === 12 && dom >= 29) holiday = 0.7;
  const r = rng(fnv(`${locationId}|${metric}|${year}-${month}-${dom}`));
  const wobble = 0.85 + r() * 0.3;
  const lambda =
    BASE[kind][metric] *
    size *
    (WEEK[kind][dow] ?? 1) *
    (SEASON[month - 1] ?? 1) *
    holiday *
    Math.max(0.3, growth) *
    wobble;
  return poisson(lambda, r);
}

// ---- search keywords -----------------------------------------------------------------------
const AREA: Record<string, string> = {
  '4821390157204861230': '渋谷',
  '4821390157204861231': '吉祥寺',
  '4821390157204861232': '自由が丘',
  '5930178246613098001': '下北沢',
  '6104729583316724501': '新宿',
  '6104729583316724502': '池袋',
  '7781536920475523301': '三軒茶屋',
  '7892647031586634401': '下北沢',
  '7215038469920417301': '渋谷',
  '7215038469920417302': '新宿',
  '7215038469920417303': '池袋',
  '7215038469920417304': '品川',
  '7346190582731165401': '梅田',
  '7346190582731165402': '難波',
  '7346190582731165403': '三宮',
  '7458203697142290801': '表参道',
  '7458203697142290802': '自由が丘',
  '7569314708253301101': '横浜',
  '7670425819364412201': '吉祥寺',
};
const TERMS: Record<Kind, string[]> = {
  cafe: [
    'カフェ',
    'コーヒー',
    'モーニング',
    'ケーキ',
    '電源 カフェ',
    'wifi カフェ',
    'おしゃれ カフェ',
    '喫茶店',
    'ランチ',
    '作業 カフェ',
  ],
  bakery: [
    'パン屋',
    'ベーカリー',
    'クロワッサン',
    '食パン',
    'サンドイッチ',
    'カフェ',
    'モーニング',
    'パン 人気',
  ],
  salon: [
    '美容院',
    '美容室',
    'ヘアサロン',
    'カット',
    'ヘッドスパ',
    'カラー',
    '縮毛矯正',
    'メンズカット',
  ],
  ramen: [
    'ラーメン',
    'つけ麺',
    '鶏白湯',
    'ラーメン 深夜',
    '煮干し ラーメン',
    'ランチ',
    'ラーメン 人気',
    '醤油ラーメン',
  ],
  udon: [
    'うどん',
    '讃岐うどん',
    'ランチ',
    'うどん 人気',
    '天ぷら うどん',
    '釜揚げうどん',
    'カレーうどん',
    'うどん 安い',
  ],
  bodywork: ['整体', '整骨院', 'マッサージ', '肩こり', '腰痛', '骨盤矯正', '鍼灸', '整体 口コミ'],
  florist: [
    '花屋',
    'フラワーショップ',
    '花束',
    'アレンジメント',
    'スタンド花',
    'ドライフラワー',
    '胡蝶蘭',
    '誕生日 花',
  ],
  generic: ['お店', '営業時間', '駐車場', '口コミ'],
};

export function keywordCounts(
  locationId: string,
  title: string,
  months: { year: number; month: number }[],
): { keyword: string; count: number }[] {
  const kind = kindOf(locationId);
  const area = AREA[locationId] ?? '東京';
  // The name people search for: the title without its branch ("渋谷店", "三軒茶屋").
  const brand =
    title
      .replace(`${area}本店`, '')
      .replace(`${area}店`, '')
      .replace(area, '')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .join(' ') || title;
  const pool = [
    brand,
    `${brand} ${area}`,
    ...TERMS[kind].flatMap((t) => [`${area} ${t}`, `${t} ${area}`]),
    `${area}駅 ${TERMS[kind][0]}`,
    `${TERMS[kind][0]} 近く`,
    `${TERMS[kind][1] ?? TERMS[kind][0]}`,
    `${brand.split(' ')[0] ?? brand} メニュー`,
    `${area} おすすめ`,
    // The long tail: rare searches that Google reports only as "below the threshold".
    ...[
      '営業時間',
      '駐車場',
      '予約',
      '口コミ',
      'テイクアウト',
      '混雑',
      '安い',
      '個室',
      '子連れ',
      '深夜',
      '日曜',
      'クーポン',
    ].map((m) => `${brand} ${m}`),
    ...['営業時間', '駐車場', '予約', '口コミ'].map((m) => `${area} ${TERMS[kind][0]} ${m}`),
  ];
  const unique = [...new Set(pool.map((k) => k.toLowerCase().trim()))];
  return unique.map((keyword, rank) => {
    const weight = 700 / Math.pow(rank + 1, 1.55);
    let count = 0;
    for (const m of months) {
      const r = rng(fnv(`${locationId}|${keyword}|${m.year}-${m.month}`));
      count += Math.round(weight * (SEASON[m.month - 1] ?? 1) * (0.75 + r() * 0.5));
    }
    return { keyword, count };
  });
}

// ---- routes ----------------------------------------------------------------------------------
function dateParam(
  req: FastifyRequest,
  camel: string,
  snake: string,
  fieldName: string,
  withDay = true,
): { year: number; month: number; day: number } {
  const get = (part: string) => field(req, `${camel}.${part}`) ?? field(req, `${snake}.${part}`);
  const year = Number(get('year'));
  const month = Number(get('month'));
  const day = withDay ? Number(get('day')) : 1;
  const valid =
    Number.isInteger(year) &&
    year >= 1 &&
    Number.isInteger(month) &&
    month >= 1 &&
    month <= 12 &&
    Number.isInteger(day) &&
    day >= 1 &&
    day <= 31;
  if (!valid)
    throw badRequest([{ field: fieldName, description: `${fieldName} must be a valid date` }]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1)
    throw badRequest([{ field: fieldName, description: `${fieldName} must be a valid date` }]);
  return { year, month, day };
}

export function registerGooglePerformance(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  const router = new PathRouter();
  const owned = async (req: FastifyRequest, id: string) => {
    const caller = await authenticate(req, rt, store, SERVICE);
    const loc = store.data.locations.find((l) => l.id === id);
    if (!loc) throw notFound();
    if (!caller.accountIds.includes(loc.accountId)) throw permissionDenied();
    return loc;
  };
  const series = (id: string, metric: Metric, from: number, to: number) => {
    const { first, last } = dataWindow(rt.now());
    const datedValues = [];
    for (let d = from; d <= to; d++) {
      const date = fromDayNumber(d);
      const key = `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
      const set = store.data.metricOverrides?.find(
        (o) => o.locationId === id && o.metric === metric && o.day === key,
      );
      const v = set ? set.value : d >= first && d <= last ? dailyValue(id, metric, d) : 0;
      // proto3 JSON leaves out an int64 zero, so a day without events has only its date.
      datedValues.push(
        v > 0 ? { date: fromDayNumber(d), value: String(v) } : { date: fromDayNumber(d) },
      );
    }
    return { datedValues };
  };
  const range = (req: FastifyRequest) => {
    const start = dateParam(
      req,
      'dailyRange.startDate',
      'daily_range.start_date',
      'daily_range.start_date',
    );
    const end = dateParam(
      req,
      'dailyRange.endDate',
      'daily_range.end_date',
      'daily_range.end_date',
    );
    const from = dayNumber(start.year, start.month, start.day);
    const to = dayNumber(end.year, end.month, end.day);
    if (from > to)
      throw badRequest([
        { field: 'daily_range', description: 'start_date must be before or equal to end_date' },
      ]);
    if (to - from > 800)
      throw badRequest([{ field: 'daily_range', description: 'The requested range is too long' }]);
    return { from, to };
  };
  const metricOf = (m: string, fieldName: string): Metric => {
    if (!(DAILY_METRICS as readonly string[]).includes(m))
      throw badRequest([
        {
          field: fieldName,
          description:
            m === 'DAILY_METRIC_UNKNOWN'
              ? 'daily_metric must be specified'
              : `Invalid value at '${fieldName}', "${m}"`,
        },
      ]);
    return m as Metric;
  };

  router.add(
    'GET',
    /^v1\/locations\/([^/:]+):fetchMultiDailyMetricsTimeSeries$/,
    async (req, _reply, [id]) => {
      const loc = await owned(req, id as string);
      const q = queryLists(req);
      const metrics = [...(q.get('dailyMetrics') ?? []), ...(q.get('daily_metrics') ?? [])];
      if (metrics.length === 0)
        throw badRequest([{ field: 'daily_metrics', description: 'Field is required' }]);
      const checked = metrics.map((m) => metricOf(m, 'daily_metrics'));
      const { from, to } = range(req);
      return {
        multiDailyMetricTimeSeries: [
          {
            dailyMetricTimeSeries: checked.map((m) => ({
              dailyMetric: m,
              timeSeries: series(loc.id, m, from, to),
            })),
          },
        ],
      };
    },
  );

  router.add(
    'GET',
    /^v1\/locations\/([^/:]+):getDailyMetricsTimeSeries$/,
    async (req, _reply, [id]) => {
      const loc = await owned(req, id as string);
      const m = field(req, 'dailyMetric') ?? field(req, 'daily_metric');
      if (!m) throw badRequest([{ field: 'daily_metric', description: 'Field is required' }]);
      const metric = metricOf(m, 'daily_metric');
      const { from, to } = range(req);
      return { timeSeries: series(loc.id, metric, from, to) };
    },
  );

  router.add(
    'GET',
    /^v1\/locations\/([^/:]+)\/searchkeywords\/impressions\/monthly$/,
    async (req, _reply, [id]) => {
      const loc = await owned(req, id as string);
      const start = dateParam(
        req,
        'monthlyRange.startMonth',
        'monthly_range.start_month',
        'monthly_range.start_month',
        false,
      );
      const end = dateParam(
        req,
        'monthlyRange.endMonth',
        'monthly_range.end_month',
        'monthly_range.end_month',
        false,
      );
      const a = start.year * 12 + start.month - 1;
      const b = end.year * 12 + end.month - 1;
      if (a > b)
        throw badRequest([
          {
            field: 'monthly_range',
            description: 'start_month must be before or equal to end_month',
          },
        ]);
      const pageSize = intParam(req, ['pageSize', 'page_size'], 'page_size', 1, 100, 100);
      const offset = decodePage(field(req, 'pageToken'));
      const t = jstToday(rt.now());
      const cur = t.year * 12 + t.month - 1;
      const months: { year: number; month: number }[] = [];
      // Only completed months inside the 25-month window have data.
      for (let k = Math.max(a, cur - 25); k <= Math.min(b, cur - 1); k++)
        months.push({ year: Math.floor(k / 12), month: (k % 12) + 1 });
      const THRESHOLD = 15;
      const counts = months.length
        ? keywordCounts(loc.id, String(loc.location.title ?? ''), months)
        : [];
      const sorted = counts.sort((x, y) => y.count - x.count || x.keyword.localeCompare(y.keyword));
      const page = sorted.slice(offset, offset + pageSize);
      const counted = page.map((k) => ({
        searchKeyword: k.keyword,
        insightsValue:
          k.count >= THRESHOLD ? { value: String(k.count) } : { threshold: String(THRESHOLD) },
      }));
      return {
        // proto3 JSON leaves an empty repeated field out, as Google's answers do.
        ...(counted.length ? { searchKeywordsCounts: counted } : {}),
        ...(offset + pageSize < sorted.length
          ? { nextPageToken: encodePage(offset + pageSize) }
          : {}),
      };
    },
  );

  app.register(async (scope) => router.mount(scope, (_m, p) => unknownPath(p)), {
    prefix: '/google/businessprofileperformance',
  });

  // A revision, as Google makes to recent days: one location's metric on one day gets `value`
  // from now on (until a reset). `{location_id, metric, day: 'YYYY-MM-DD', value}`.
  app.post('/control/google/daily-metric', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const locationId = String(b.location_id ?? '');
    const metric = String(b.metric ?? '');
    const day = String(b.day ?? '');
    const value = Number(b.value);
    if (
      !store.data.locations.some((l) => l.id === locationId) ||
      !(DAILY_METRICS as readonly string[]).includes(metric) ||
      !/^\d{4}-\d{2}-\d{2}$/.test(day) ||
      !Number.isInteger(value) ||
      value < 0
    )
      return reply.code(400).send({
        error: 'invalid',
        message:
          'location_id, metric (a DailyMetric), day (YYYY-MM-DD) and value (>= 0) are needed',
      });
    const overrides = (store.data.metricOverrides ??= []).filter(
      (o) => !(o.locationId === locationId && o.metric === metric && o.day === day),
    );
    overrides.push({ locationId, metric, day, value });
    store.data.metricOverrides = overrides;
    store.save();
    return { data: { location_id: locationId, metric, day, value } };
  });
}
