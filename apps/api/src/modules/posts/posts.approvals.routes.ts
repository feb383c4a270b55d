import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  idParams,
  ok,
  postApprovalApproveBody,
  postApprovalJa,
  postApprovalListQuery,
  postApprovalListResponse,
  postApprovalRejectBody,
  postApprovalWithdrawQuery,
  postSchema,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import { storeOf, storeRoute, storesOf } from '../../plugins/route-guards';
import type { StoreAccess } from '../stores/access';
import type { PostApprovals } from './posts.approvals';

const REQUEST = "the request is looked up by id among the named store's requests";

/** Approval of posts (issue 25 item 6, ADR 0095, docs/product/reviews.md "Approval"). */
export function registerPostApprovalRoutes(
  app: FastifyInstance,
  deps: {
    approvals: PostApprovals;
    access: StoreAccess;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const { approvals } = deps;
  const guard = (mode: 'read' | 'write', from: 'query' | 'body', owner?: string) =>
    storeRoute(deps.authenticate, deps.access, mode, from, owner ? { owner } : {});

  r.get(
    '/posts/approvals',
    {
      ...guard('read', 'query'),
      schema: {
        tags: ['posts'],
        summary:
          "Requests for approval of posts, of one store or several, newest first (paged: limit 5/10/25/50). `state`: open (pending: waiting for a decision; the default), or one state. Each carries the post's text, channels, dates and media, and says whether the caller may decide on it or withdraw it.",
        querystring: postApprovalListQuery,
        response: { 200: ok(postApprovalListResponse) },
      },
    },
    async (req) =>
      okData({
        data: await approvals.list(
          actorOf(req).user,
          storesOf(req).map((s) => s.id),
          req.query,
        ),
      }),
  );

  r.post(
    '/posts/approvals/:id/approve',
    {
      ...guard('write', 'body', REQUEST),
      schema: {
        tags: ['posts'],
        summary:
          "Approve a held post: its targets are scheduled and go out on the post's date (at once when it has passed). Not by its author (409). Decided already, by another approver or in another tab: 409, nothing scheduled twice. Its removal date passed: 422. The answer is the post.",
        params: idParams,
        body: postApprovalApproveBody,
        response: { 200: ok(postSchema) },
      },
    },
    async (req) => {
      const { post, message } = await approvals.approve(
        actorOf(req).user,
        storeOf(req),
        Number(req.params.id),
      );
      return okData(post, message);
    },
  );

  r.post(
    '/posts/approvals/:id/reject',
    {
      ...guard('write', 'body', REQUEST),
      schema: {
        tags: ['posts'],
        summary:
          'Send a held post back to its author, with an optional note (up to 500 characters): it is never sent (`not_approved`); the author is mailed. Not by its author (409).',
        params: idParams,
        body: postApprovalRejectBody,
        response: { 200: ok(postSchema) },
      },
    },
    async (req) =>
      okData(
        await approvals.reject(
          actorOf(req).user,
          storeOf(req),
          Number(req.params.id),
          req.body.note,
        ),
        postApprovalJa.rejected,
      ),
  );

  r.delete(
    '/posts/approvals/:id',
    {
      ...guard('write', 'query', REQUEST),
      schema: {
        tags: ['posts'],
        summary:
          'Withdraw a request that still waits: by its author only (403 otherwise). The post is never sent.',
        params: idParams,
        querystring: postApprovalWithdrawQuery,
        response: { 200: ok(postSchema) },
      },
    },
    async (req) =>
      okData(
        await approvals.withdraw(actorOf(req).user, storeOf(req), Number(req.params.id)),
        postApprovalJa.withdrawn,
      ),
  );
}
