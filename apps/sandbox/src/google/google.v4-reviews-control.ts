// What happens to reviews outside the API, at Google and at its customers: a customer writes,
// edits or deletes a review, Google's moderation decides on a reply, the owner replies in
// Google's own screen (the page behind `reviewReplyUrl`), and Google's image host draws the
// reviewers' and reviews' photos. Controls answer plain JSON (apps/sandbox/README.md).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { bodyObject, esc, page, type Dict } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import type { GLocation, GoogleState, GReview } from './google.state';
import { stamp } from './google.v4-common';
import {
  logEvent,
  moderate,
  POLICY_VIOLATIONS,
  putReply,
  replyViolation,
  reviewJson,
  reviewsOf,
  settle,
  STAR_RATINGS,
} from './google.v4-reviews';
import { reviewRecord } from './google.v4-reviews-seed';

const invalid = (reply: FastifyReply, message: string) =>
  reply.code(400).send({ error: 'invalid', message });

/** 1–5, or a StarRating name (`ONE` … `FIVE`). */
const starsFrom = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^[A-Z]+$/.test(v) ? STAR_RATINGS.indexOf(v as never) + 1 : v;
  const x = Number(n);
  return Number.isInteger(x) && x >= 1 && x <= 5 ? x : undefined;
};

/** `location_id`, `locationId` or `location` (`123`, `locations/123`, `accounts/…/locations/123`). */
const locationFrom = (s: GoogleState, b: Dict): GLocation | undefined => {
  const raw = String(b.location_id ?? b.locationId ?? b.location ?? '');
  const id = raw.split('/').pop();
  return s.locations.find((l) => l.id === id);
};

/** Photos a reviewer attaches through the control (`photos`: 0–3). */
const photosFrom = (id: string, v: unknown) =>
  Array.from({ length: Math.max(0, Math.min(3, Math.floor(Number(v) || 0))) }, (_, i) => ({
    key: `${id.slice(0, 12)}-${i}`,
  }));

/** The review a customer writes, from the control's body, or why it cannot be written. */
function newReview(rt: Runtime, loc: GLocation, b: Dict): GReview | string {
  const stars = starsFrom(b.star_rating ?? b.starRating);
  if (!stars) return 'star_rating must be 1–5 (or ONE … FIVE)';
  const created = b.create_time ?? b.createTime;
  const at = created === undefined ? rt.now() : Date.parse(String(created));
  if (!Number.isFinite(at) || at > rt.now())
    return 'create_time must be an RFC 3339 time, not in the future';
  const reviewer = (typeof b.reviewer === 'object' && b.reviewer ? b.reviewer : {}) as Dict;
  const anonymous = b.anonymous === true || b.isAnonymous === true || reviewer.isAnonymous === true;
  const name = String(
    (typeof b.reviewer === 'string' ? b.reviewer : reviewer.displayName) ?? '佐藤 花子',
  );
  const comment = typeof b.comment === 'string' && b.comment !== '' ? b.comment : undefined;
  const id = randomBytes(30).toString('base64url').slice(0, 38);
  const time = new Date(at).toISOString();
  return reviewRecord({
    locationId: loc.id,
    id,
    stars,
    reviewer: anonymous ? null : name,
    comment,
    createTime: time,
    updateTime: time,
    media: photosFrom(id, b.photos),
  });
}

/** The reviewers' and reviews' photos as Google's image host (lh3) serves them, drawn here. */
function registerImages(app: FastifyInstance): void {
  app.get<{ Params: { kind: string; key: string } }>(
    '/google/lh3/:kind/:key',
    async (req, reply) => {
      const { kind, key } = req.params;
      const hue = [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
      const cache = 'public, max-age=86400';
      if (kind === 'a')
        return reply
          .type('image/svg+xml')
          .header('cache-control', cache)
          .send(
            `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="32" fill="hsl(${hue},45%,55%)"/><circle cx="32" cy="25" r="11" fill="#fff"/><ellipse cx="32" cy="54" rx="19" ry="13" fill="#fff"/></svg>`,
          );
      if (kind === 'p')
        return reply
          .type('image/svg+xml')
          .header('cache-control', cache)
          .send(
            `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="hsl(${hue},40%,70%)"/><circle cx="200" cy="160" r="80" fill="hsl(${(hue + 40) % 360},50%,85%)"/></svg>`,
          );
      // A review's video: the sandbox has no video to play, it says so on a page.
      if (kind === 'v')
        return reply
          .type('text/html; charset=utf-8')
          .send(
            page('動画 / Video', '<p>サンドボックスの口コミ動画です（再生はできません）。</p>'),
          );
      return reply.code(404).type('text/plain').send('Not Found');
    },
  );
}

const STATE_JA: Record<string, string> = {
  PENDING: '審査中',
  APPROVED: '公開中',
  REJECTED: '公開不可',
};

/** The owner's reply screen behind `reviewReplyUrl`: the review, its reply, a reply form. */
function registerReplyPage(app: FastifyInstance, rt: Runtime, store: JsonStore<GoogleState>): void {
  const target = (name: unknown) => {
    const m = /^accounts\/([^/]+)\/locations\/([^/]+)\/reviews\/([^/]+)$/.exec(String(name ?? ''));
    const r = m
      ? reviewsOf(store, rt).find((x) => x.locationId === m[2] && x.id === m[3] && !x.deleted)
      : undefined;
    return m && r ? { account: m[1] as string, r } : undefined;
  };
  const show = (account: string, r: GReview, error = '') => {
    const v = reviewJson(rt, account, r);
    const reply = v.reviewReply as Dict | undefined;
    const stars = STAR_RATINGS.indexOf(v.starRating as never) + 1;
    return page(
      'クチコミに返信 / Reply to a review',
      `<h1>クチコミに返信</h1><div class="card"><p><b>${esc(String((v.reviewer as Dict).displayName ?? ''))}</b> ${'★'.repeat(stars)}${'☆'.repeat(5 - stars)}</p>
<p>${esc(String(v.comment ?? '（評価のみ）'))}</p>
${reply ? `<p class="muted">オーナーの返信（${esc(STATE_JA[String(reply.reviewReplyState)] ?? String(reply.reviewReplyState))}${reply.policyViolation ? ` · ${esc(String(reply.policyViolation))}` : ''}）: ${esc(String(reply.comment))}</p>` : ''}
${error ? `<p style="color:#c5221f">${esc(error)}</p>` : ''}
<form method="post"><input type="hidden" name="review" value="${esc(String(v.name))}">
<p><label>返信 / Reply<br><textarea name="comment" rows="5" style="width:100%">${esc(String(reply?.comment ?? ''))}</textarea></label></p>
<div class="actions"><button class="primary">返信を投稿 / Post reply</button></div></form></div>`,
    );
  };
  app.get('/google/review-reply', async (req, reply) => {
    const t = target((req.query as Dict).review);
    if (!t) return reply.code(404).type('text/plain').send('Not Found');
    if (settle(rt, t.r)) store.save();
    return reply.type('text/html; charset=utf-8').send(show(t.account, t.r));
  });
  app.post('/google/review-reply', async (req, reply) => {
    const b = bodyObject(req);
    const t = target(b.review ?? (req.query as Dict).review);
    if (!t) return reply.code(404).type('text/plain').send('Not Found');
    const bad = replyViolation(b.comment);
    if (bad)
      return reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(show(t.account, t.r, bad.message));
    putReply(rt, t.r, b.comment as string);
    store.save();
    return reply.redirect(
      `${rt.baseUrl}/google/review-reply?review=${encodeURIComponent(String(b.review))}`,
      303,
    );
  });
}

/**
 * Controls (body JSON, snake_case or Google's camelCase):
 * - `POST {S}/control/google/reviews` `{location_id | location, star_rating (1–5 | ONE…FIVE),
 *   comment?, reviewer? (name or {displayName}), anonymous?, create_time?, photos? (0–3)}`
 *   → the Review as reviews.get answers it: a customer writes a review.
 * - `GET {S}/control/google/reviews/{reviewId}` → `{data: {name, location_id, reply_calls,
 *   replies_now, history[], review}}`: what Google holds (reply_calls counts updateReply).
 * - `PATCH …/{reviewId}` `{star_rating?, comment? (null: none)}`: the customer edits it.
 * - `DELETE …/{reviewId}`: the customer deletes it (get answers NOT_FOUND from then on).
 * - `POST …/{reviewId}/moderation` `{state: PENDING | APPROVED | REJECTED, policy_violation?}`:
 *   Google (re)decides on the reply now; PENDING holds it until another decision or reply.
 */
export function registerReviewsControl(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  registerImages(app);
  registerReplyPage(app, rt, store);
  const accountOf = (r: GReview) =>
    store.data.locations.find((l) => l.id === r.locationId)?.accountId ?? '';
  const byId = (id: string) => reviewsOf(store, rt).find((x) => x.id === id && !x.deleted);

  app.post('/control/google/reviews', async (req, reply) => {
    const b = bodyObject(req);
    const loc = locationFrom(store.data, b);
    if (!loc) return invalid(reply, 'location_id must name a seeded location');
    const r = newReview(rt, loc, b);
    if (typeof r === 'string') return invalid(reply, r);
    reviewsOf(store, rt).push(r);
    store.save();
    return reviewJson(rt, loc.accountId, r);
  });

  app.get<{ Params: { id: string } }>('/control/google/reviews/:id', async (req, reply) => {
    const r = byId(req.params.id);
    if (!r) return reply.code(404).send({ error: 'not_found' });
    if (settle(rt, r)) store.save();
    const review = reviewJson(rt, accountOf(r), r);
    return {
      data: {
        name: review.name,
        location_id: r.locationId,
        reply_calls: r.replies,
        replies_now: r.review.reviewReply ? 1 : 0,
        history: r.history ?? [],
        review,
      },
    };
  });

  app.patch<{ Params: { id: string } }>('/control/google/reviews/:id', async (req, reply) => {
    const r = byId(req.params.id);
    if (!r) return reply.code(404).send({ error: 'not_found' });
    const b = bodyObject(req);
    const raw = b.star_rating ?? b.starRating;
    const stars = raw === undefined ? undefined : starsFrom(raw);
    if (raw !== undefined && !stars) return invalid(reply, 'star_rating must be 1–5');
    if (stars) r.review.starRating = STAR_RATINGS[stars - 1];
    if (b.comment === null || b.comment === '') delete r.review.comment;
    else if (typeof b.comment === 'string') r.review.comment = b.comment;
    r.review.updateTime = stamp(rt);
    store.save();
    return reviewJson(rt, accountOf(r), r);
  });

  app.delete<{ Params: { id: string } }>('/control/google/reviews/:id', async (req, reply) => {
    const r = byId(req.params.id);
    if (!r) return reply.code(404).send({ error: 'not_found' });
    r.deleted = true;
    store.save();
    return { data: { deleted: true } };
  });

  app.post<{ Params: { id: string } }>(
    '/control/google/reviews/:id/moderation',
    async (req, reply) => {
      const r = byId(req.params.id);
      if (!r?.review.reviewReply) return reply.code(404).send({ error: 'not_found' });
      const b = bodyObject(req);
      const state = String(b.state ?? '');
      const violation = b.policy_violation ?? b.policyViolation;
      if (!['PENDING', 'APPROVED', 'REJECTED'].includes(state))
        return invalid(reply, 'state must be PENDING, APPROVED or REJECTED');
      if (violation !== undefined && !POLICY_VIOLATIONS.includes(String(violation)))
        return invalid(reply, 'policy_violation must be a ReviewReply.PolicyViolation value');
      if (state === 'PENDING') {
        (r.review.reviewReply as Dict).reviewReplyState = 'PENDING';
        delete (r.review.reviewReply as Dict).policyViolation;
        r.replyLiveAt = Number.MAX_SAFE_INTEGER;
        logEvent(r, { op: 'moderation', at: stamp(rt), state });
      } else moderate(rt, r, state, violation === undefined ? undefined : String(violation));
      store.save();
      return { data: { ...(r.review.reviewReply as Dict) } };
    },
  );
}
