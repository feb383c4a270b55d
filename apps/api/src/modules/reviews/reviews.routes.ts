import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  complianceFindingSchema,
  idParams,
  ok,
  reviewCheckBody,
  reviewJa,
  reviewListQuery,
  reviewListResponse,
  reviewOneQuery,
  reviewReplyBody,
  reviewSchema,
  RULE_SET_IDS,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import { storeOf, storeRoute, storesOf } from '../../plugins/route-guards';
import type { StoreAccess } from '../stores/access';
import type { ReviewsService } from './reviews.service';

const OWNER = "the review is looked up by id among the named store's reviews";

/** The reviews inbox (issue 25, docs/product/reviews.md). */
export function registerReviewRoutes(
  app: FastifyInstance,
  deps: { reviews: ReviewsService; access: StoreAccess; authenticate: preHandlerAsyncHookHandler },
): void {
  const r = withZod(app);
  const { reviews } = deps;

  r.get(
    '/reviews',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags: ['reviews'],
        summary:
          "The Google reviews of one store or several, newest first, as the sync last read them (paged: limit 5/10/25/50, 10 by default). Filters: stars (comma-separated 1–5), replied (all, unreplied, replied), date_from/date_to (yyyy-MM-dd, Tokyo, on the review's creation), q (the review's text and the reviewer's name). Each review carries the store's reply with Google's moderation state (pending, live, rejected with its policy reason).",
        querystring: reviewListQuery,
        response: { 200: ok(reviewListResponse) },
      },
    },
    async (req) => {
      return okData({ data: await reviews.list(actorOf(req).user, storesOf(req), req.query) });
    },
  );

  r.get(
    '/reviews/:id',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query', { owner: OWNER }),
      schema: {
        tags: ['reviews'],
        summary: 'One review of the named stores, with its reply.',
        params: idParams,
        querystring: reviewOneQuery,
        response: { 200: ok(reviewSchema) },
      },
    },
    async (req) =>
      okData(await reviews.one(actorOf(req).user, storesOf(req), Number(req.params.id))),
  );

  r.post(
    '/reviews/check',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'body'),
      schema: {
        tags: ['reviews'],
        summary:
          "The compliance check of a reply text for the store's industry (and, with review_id, that review's reviewer: their name repeated is personal data) (its Google primary category picks the rule sets: 医療広告ガイドライン, 薬機法, 景品表示法, personal data). Each finding names its rule, the phrase and its position, why, and its source; `block` findings stop a reply unless it is sent with override.",
        body: reviewCheckBody,
        response: {
          200: ok(
            z.object({
              rule_sets: z.array(z.enum(RULE_SET_IDS)),
              findings: z.array(complianceFindingSchema),
            }),
          ),
        },
      },
    },
    async (req) => {
      const store = storeOf(req);
      const id = req.body.review_id;
      return okData(
        await reviews.check(store, req.body.comment, id === undefined ? undefined : Number(id)),
      );
    },
  );

  r.post(
    '/reviews/:id/reply',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body', { owner: OWNER }),
      schema: {
        tags: ['reviews'],
        summary:
          "Send the store's reply to the review on Google (creates it, or replaces the one there: Google keeps one reply). The text is checked first: empty, over 4,096 bytes, or with a blocking finding and no override is a 422 on `comment` and nothing is sent. An override is kept in the audit log with the findings. The answer is the review, its reply pending until Google has moderated it. When the store's agency requires approval of replies, a 409 (approval_required): ask for approval instead (POST /reviews/{id}/approvals).",
        params: idParams,
        body: reviewReplyBody,
        response: { 200: ok(reviewSchema) },
      },
    },
    async (req) =>
      okData(
        await reviews.reply(actorOf(req).user, storeOf(req), Number(req.params.id), req.body),
        reviewJa.replySent,
      ),
  );

  r.delete(
    '/reviews/:id/reply',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'query', { owner: OWNER }),
      schema: {
        tags: ['reviews'],
        summary: "Delete the store's reply to the review on Google (none there counts as deleted).",
        params: idParams,
        querystring: reviewOneQuery,
        response: { 200: ok(reviewSchema) },
      },
    },
    async (req) =>
      okData(
        await reviews.deleteReply(actorOf(req).user, storeOf(req), Number(req.params.id)),
        reviewJa.replyDeleted,
      ),
  );
}
