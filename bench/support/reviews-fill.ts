// The reviews of a bench run: `perStore` reviews for each store over the last 400 days,
// generated in the database (200,000 rows is slow through parameters).
import { sql } from 'kysely';
import type { DbHandle } from '../../apps/api/src/db/kysely';

// Review text varies as on Google: an opening, a dish and now and then a remark, so that a
// word is in a share of the reviews, not in all of them (a search for a dish finds one review
// in twelve, 「駐車場」 one in twenty, 「丁寧」 one in ten).
const OPENINGS = [
  '店員さんの対応がとても丁寧でした。',
  '雰囲気が落ち着いていて居心地が良かったです。',
  '少し待ち時間が長かったです。',
  '駅から近くて便利です。',
  'スタッフの笑顔が素敵でした。',
  '清潔感のある店内でした。',
  '予約なしでも入れました。',
  '友人の誕生日に利用しました。',
  '接客が少し雑に感じました。',
  '家族で訪れました。',
];
const DISHES = [
  'ランチのパスタも美味しかったです。',
  'ハンバーグが絶品でした。',
  'デザートのティラミスが最高でした。',
  'コーヒーの香りが良かったです。',
  'カレーは少し辛めでした。',
  'サラダが新鮮でした。',
  'ピザの生地がもちもちでした。',
  '日替わり定食がお得です。',
  'ケーキの種類が豊富です。',
  'スープが温かくて美味しかったです。',
  '焼き魚の定食が美味しかったです。',
  'パンケーキがふわふわでした。',
];
const REMARKS = [
  '駐車場が広いです。',
  'Wi-Fi が使えて助かります。',
  '',
  '',
  'また来ます！',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
];
// Names as Google shows them: family names alone (two characters), full names, a few in
// Latin letters.
const NAMES = [
  '佐藤',
  '鈴木 花子',
  '高橋',
  '田中 一郎',
  '伊藤 美咲',
  'Taro Yamada',
  '渡辺',
  '山本 健',
  'Emily Chen',
  '中村 さくら',
  '小林',
];

const pick = (list: readonly string[], expr: string) =>
  `(case (${expr}) % ${list.length} ${list.map((t, i) => `when ${i} then '${t}'`).join(' ')} end)`;

/** Inserts `perStore` reviews for each store of `ids` (consecutive ids). */
export async function fillReviews(h: DbHandle, ids: readonly number[], perStore: number) {
  const now = new Date().toISOString();
  const lo = Math.min(...ids);
  const hi = Math.max(...ids);
  // Stars skew high (as on Google), one review in five has no text, two in three are replied.
  const series =
    h.dialect === 'postgres'
      ? `generate_series(0, ${perStore - 1}) as d(n)`
      : `(with recursive s(n) as (select 0 union all select n + 1 from s where n < ${perStore - 1}) select n from s) as d`;
  const time = (expr: string) =>
    h.dialect === 'postgres'
      ? `to_char((timestamp '2026-11-28 00:00:00' - (${expr}) * interval '1 minute'), 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%S.000Z', '2026-11-28 00:00:00', '-' || (${expr}) || ' minutes')`;
  const minutes = `(d.n * 2880 + (u.id * 37) % 2880)`;
  const stars = `(case when (u.id + d.n) % 10 < 1 then 1 when (u.id + d.n) % 10 < 2 then 2 when (u.id + d.n) % 10 < 3 then 3 when (u.id + d.n) % 10 < 5 then 4 else 5 end)`;
  const replied = `(case when (u.id * 7 + d.n) % 3 = 0 then 0 else 1 end)`;
  const comment = `${pick(OPENINGS, 'u.id * 3 + d.n')} || ${pick(DISHES, 'u.id + d.n * 7')} || ${pick(REMARKS, 'u.id * 11 + d.n * 3')} || d.n`;
  await sql
    .raw(
      `insert into reviews (store_id, name, reviewer_name, is_anonymous, star_rating, comment, media,
         created_at, updated_at, has_reply, reply_comment, reply_state, first_seen_at)
       select u.id, 'accounts/1/locations/' || u.id || '/reviews/' || d.n, ${pick(NAMES, 'u.id + d.n * 5')}, 0, ${stars},
         case when d.n % 5 = 0 then null else ${comment} end,
         '[]', ${time(minutes)}, ${time(minutes)}, ${replied},
         case when ${replied} = 1 then 'ありがとうございます。' else null end,
         case when ${replied} = 1 then 'live' else null end, '${now}'
       from users u cross join ${series}
       where u.id between ${lo} and ${hi}`,
    )
    .execute(h.db);
  if (h.dialect === 'postgres')
    await sql.raw('vacuum analyze reviews, review_counts, users').execute(h.db);
  else await sql.raw('analyze').execute(h.db);
}
