// Reviews on the Business Profile v4 API (developers.google.com/my-business/reference/rest/v4/
// accounts.locations.reviews; fixtures/google-reviews): list (newest first, pages of up to 50,
// with the location's averageRating and totalReviewCount), get, updateReply (a PUT: creates or
// replaces the one reply), deleteReply. Since 2026-04-01 a reply is moderated: PENDING until the
// emulated moderation is done, then APPROVED, or REJECTED with a policy violation when the
// reply holds REJECT_MARKER. Japanese reviews are seeded per location; the control endpoint
// `POST {S}/control/google/reviews` adds one, as a customer writing on Google would.
import type { FastifyInstance } from 'fastify';
import { bodyObject, field, type Dict, type PathRouter } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { notFound, v4ValidationError } from './google.errors';
import { decodePage, encodePage, intParam } from './google.business';
import type { GoogleState, GReview } from './google.state';
import { REJECT_MARKER, stamp, v4Parent, type V4Ctx } from './google.v4-common';

const REVIEWS = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews$/;
const REVIEW = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews\/([^/:]+)$/;
const REPLY = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews\/([^/:]+)\/reply$/;

export const STAR_RATINGS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;
/** Google's limit on a reply's text (updateReply): 4,096 bytes. */
export const REPLY_MAX_BYTES = 4096;
/** Google's largest reviews page; also its default (reviews.list `pageSize`). */
export const REVIEWS_MAX_PAGE = 50;
const DAY = 86_400_000;

// The seeded reviews: text (or none), stars, a reviewer (or anonymous), a reply (or none).
const TEXTS: [number, string | null][] = [
  [5, 'スタッフの方の対応がとても丁寧で、居心地の良いお店でした。また伺います。'],
  [5, 'ランチのセットがお得で美味しかったです。コーヒーもおすすめです。'],
  [4, '雰囲気が良く、ゆっくり過ごせました。週末は少し混んでいます。'],
  [5, null],
  [3, '味は普通でした。提供まで少し時間がかかりました。'],
  [4, '駅から近くて便利です。デザートの種類がもう少しあると嬉しいです。'],
  [2, '予約していたのに20分待たされました。説明もなく残念です。'],
  [1, '店員の態度が悪く、二度と行きません。'],
  [5, '友人の誕生日に利用しました。サプライズにも対応していただき感謝しています。'],
  [4, null],
  [3, '席の間隔が狭く、隣の会話が気になりました。'],
  [2, '注文と違うものが出てきました。'],
];
const NAMES = ['佐藤 花子', '鈴木 一郎', 'Tanaka K', '高橋 美咲', '伊藤 健', '渡辺 さくら'];
const REPLIES = [
  'ご来店ありがとうございました。またのお越しを心よりお待ちしております。',
  '貴重なご意見をありがとうございます。スタッフ一同、改善に努めてまいります。',
];

/** The seeded reviews of a location: a dozen, over the last six months, deterministic. */
export function seedReviews(
  locationIds: readonly string[],
  now: number,
  baseUrl: string,
): GReview[] {
  return locationIds.flatMap((locationId, li) =>
    TEXTS.map(([stars, comment], i) => {
      const at = new Date(now - (i * 15 + (li % 7) + 1) * DAY).toISOString();
      const anonymous = (i + li) % 5 === 4;
      const replied = i % 3 === 0;
      const review: Dict = {
        reviewId: `${locationId.slice(-6)}r${String(i).padStart(3, '0')}`,
        reviewer: anonymous
          ? { displayName: 'Google ユーザー', isAnonymous: true }
          : {
              displayName: NAMES[(i + li) % NAMES.length],
              profilePhotoUrl: `${baseUrl}/google/lh3/a/reviewer-${(i + li) % NAMES.length}`,
              isAnonymous: false,
            },
        starRating: STAR_RATINGS[stars - 1],
        ...(comment ? { comment } : {}),
        createTime: at,
        updateTime: at,
        ...(replied
          ? {
              reviewReply: {
                comment: REPLIES[stars >= 4 ? 0 : 1],
                updateTime: new Date(Date.parse(at) + DAY / 2).toISOString(),
                reviewReplyState: 'APPROVED',
              },
            }
          : {}),
        ...(i === 1 || i === 8
          ? {
              reviewMediaItems: [{ thumbnailUrl: `${baseUrl}/google/lh3/p/review-${i}` }],
            }
          : {}),
      };
      return { locationId, id: review.reviewId as string, review, replyLiveAt: 0, replies: 0 };
    }),
  );
}

/** The location's reviews, seeded on first use (a state saved before reviews existed). */
function reviewsOf(store: JsonStore<GoogleState>, rt: Runtime): GReview[] {
  if (!store.data.reviews) {
    store.data.reviews = seedReviews(
      store.data.locations.map((l) => l.id),
      rt.now(),
      rt.baseUrl,
    );
    store.save();
  }
  return store.data.reviews;
}

/** Moderation ends at the first read after its delay: APPROVED, or REJECTED with a reason. */
function settle(rt: Runtime, r: GReview): boolean {
  const reply = r.review.reviewReply as Dict | undefined;
  if (!reply || reply.reviewReplyState !== 'PENDING' || rt.now() < r.replyLiveAt) return false;
  const rejected = typeof reply.comment === 'string' && reply.comment.includes(REJECT_MARKER);
  reply.reviewReplyState = rejected ? 'REJECTED' : 'APPROVED';
  if (rejected)
    reply.policyViolation = {
      policyViolationType: 'SPAM',
      description: 'The reply does not follow the Google Business Profile content policy.',
    };
  return true;
}

const reviewJson = (a: string, l: string, r: GReview): Dict => ({
  name: `accounts/${a}/locations/${l}/reviews/${r.id}`,
  ...r.review,
  reviewReplyUrl: `https://business.google.com/reviews/reply?review=${r.id}`,
});

const byUpdateDesc = (x: GReview, y: GReview) =>
  String(y.review.updateTime).localeCompare(String(x.review.updateTime));
const starsOf = (r: GReview) => STAR_RATINGS.indexOf(r.review.starRating as never) + 1;

export function registerV4Reviews(router: PathRouter, ctx: V4Ctx): void {
  const { rt, store } = ctx;
  const find = (l: string, id: string) => {
    const r = reviewsOf(store, rt).find((x) => x.locationId === l && x.id === id);
    if (!r) throw notFound();
    return r;
  };

  router.add('GET', REVIEWS, async (req, _reply, [a, l]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const pageSize = intParam(
      req,
      ['pageSize'],
      'page_size',
      1,
      REVIEWS_MAX_PAGE,
      REVIEWS_MAX_PAGE,
    );
    const offset = decodePage(field(req, 'pageToken'));
    const order = (field(req, 'orderBy') ?? 'updateTime desc').trim();
    const sorts: Record<string, (x: GReview, y: GReview) => number> = {
      'updateTime desc': byUpdateDesc,
      rating: (x, y) => starsOf(x) - starsOf(y) || byUpdateDesc(x, y),
      'rating desc': (x, y) => starsOf(y) - starsOf(x) || byUpdateDesc(x, y),
    };
    const sort = sorts[order];
    if (!sort)
      throw v4ValidationError([
        { code: 3, field: 'order_by', message: `Invalid order_by: ${order}` },
      ]);
    const all = reviewsOf(store, rt)
      .filter((r) => r.locationId === l)
      .sort(sort);
    const page = all.slice(offset, offset + pageSize);
    if (page.map((r) => settle(rt, r)).some(Boolean)) store.save();
    const rated = all.map(starsOf).filter((n) => n > 0);
    return {
      ...(page.length ? { reviews: page.map((r) => reviewJson(a as string, l as string, r)) } : {}),
      ...(rated.length
        ? { averageRating: Math.round((rated.reduce((s, n) => s + n, 0) / rated.length) * 10) / 10 }
        : {}),
      totalReviewCount: all.length,
      ...(offset + pageSize < all.length ? { nextPageToken: encodePage(offset + pageSize) } : {}),
    };
  });

  router.add('GET', REVIEW, async (req, _reply, [a, l, id]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const r = find(l as string, id as string);
    if (settle(rt, r)) store.save();
    return reviewJson(a as string, l as string, r);
  });

  router.add('PUT', REPLY, async (req, _reply, [a, l, id]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const r = find(l as string, id as string);
    const comment = bodyObject(req).comment;
    if (typeof comment !== 'string' || comment.trim() === '')
      throw v4ValidationError([{ code: 2, field: 'comment', message: 'comment is required.' }]);
    if (Buffer.byteLength(comment, 'utf8') > REPLY_MAX_BYTES)
      throw v4ValidationError([
        { code: 3, field: 'comment', message: `comment exceeds ${REPLY_MAX_BYTES} bytes.` },
      ]);
    const reply = { comment, updateTime: stamp(rt), reviewReplyState: 'PENDING' };
    r.review.reviewReply = reply;
    r.replyLiveAt = rt.now() + rt.settings().google.postLiveAfterMs;
    r.replies += 1;
    store.save();
    return reply;
  });

  router.add('DELETE', REPLY, async (req, _reply, [a, l, id]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const r = find(l as string, id as string);
    if (!r.review.reviewReply) throw notFound();
    delete r.review.reviewReply;
    store.save();
    return {};
  });
}

/**
 * `POST {S}/control/google/reviews`: a customer writes a review on Google.
 * Body: `{ location_id, star_rating: 1–5, comment?, reviewer?, anonymous? }` → the review.
 */
export function registerReviewsControl(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  // Reviewers' photos and review photos, as Google's image host (lh3) serves them: drawn here,
  // since the sandbox reaches no outside host.
  app.get<{ Params: { kind: string; key: string } }>(
    '/google/lh3/:kind/:key',
    async (req, reply) => {
      const { kind, key } = req.params;
      if (kind !== 'a' && kind !== 'p') return reply.code(404).type('text/plain').send('Not Found');
      const hue = [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
      const svg =
        kind === 'a'
          ? `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="32" fill="hsl(${hue},45%,55%)"/><circle cx="32" cy="25" r="11" fill="#fff"/><ellipse cx="32" cy="54" rx="19" ry="13" fill="#fff"/></svg>`
          : `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="hsl(${hue},40%,70%)"/><circle cx="200" cy="160" r="80" fill="hsl(${(hue + 40) % 360},50%,85%)"/></svg>`;
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
    },
  );

  app.post('/control/google/reviews', async (req, reply) => {
    const b = (req.body ?? {}) as Dict;
    const loc = store.data.locations.find((l) => l.id === String(b.location_id ?? ''));
    const stars = Number(b.star_rating);
    if (!loc || !Number.isInteger(stars) || stars < 1 || stars > 5)
      return reply.code(400).send({ error: 'location_id of a location and star_rating 1–5' });
    const list = reviewsOf(store, rt);
    const at = stamp(rt);
    const id = `${loc.id.slice(-6)}n${String(list.length).padStart(5, '0')}`;
    const anonymous = b.anonymous === true;
    const review: Dict = {
      reviewId: id,
      reviewer: anonymous
        ? { displayName: 'Google ユーザー', isAnonymous: true }
        : { displayName: String(b.reviewer ?? 'Google ユーザー'), isAnonymous: false },
      starRating: STAR_RATINGS[stars - 1],
      ...(typeof b.comment === 'string' && b.comment ? { comment: b.comment } : {}),
      createTime: at,
      updateTime: at,
    };
    list.push({ locationId: loc.id, id, review, replyLiveAt: 0, replies: 0 });
    store.save();
    return reviewJson(loc.accountId, loc.id, list[list.length - 1] as GReview);
  });
}
