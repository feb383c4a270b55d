import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  approvalApproveBody,
  approvalJa,
  approvalListQuery,
  approvalListResponse,
  approvalRejectBody,
  approvalRequestBody,
  approvalSettingsBody,
  approvalSettingsQuery,
  approvalSettingsSchema,
  approvalWithdrawQuery,
  postApprovalJa,
  idParams,
  ok,
  reviewSchema,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import { storeOf, storeRoute, storesOf } from '../../plugins/route-guards';
import type { StoreAccess } from '../stores/access';
import type { ApprovalsService } from './approvals.service';

const REVIEW = "the review is looked up by id among the named store's reviews";
const REQUEST = "the request is looked up by id among the named store's requests";

/** Approval of replies (issue 25 item 6, ADR 0093, docs/product/reviews.md). */
export function registerApprovalRoutes(
  app: FastifyInstance,
  deps: {
    approvals: ApprovalsService;
    access: StoreAccess;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const { approvals } = deps;
  const guard = (mode: 'read' | 'write', from: 'query' | 'body', owner?: string) =>
    storeRoute(deps.authenticate, deps.access, mode, from, owner ? { owner } : {});

  r.get(
    '/reviews/approval-settings',
    {
      ...guard('read', 'query'),
      schema: {
        tags: ['reviews'],
        summary:
          "Whether the replies and the posts of a store (or of an agency's stores) need approval before they are sent: the agency's rules, off by default. `can_edit`: the caller may change it (the agency, or a manager).",
        querystring: approvalSettingsQuery,
        response: { 200: ok(approvalSettingsSchema) },
      },
    },
    async (req) => okData(await approvals.settingsOf(actorOf(req).user, storeOf(req))),
  );

  r.put(
    '/reviews/approval-settings',
    {
      ...guard('write', 'body'),
      schema: {
        tags: ['reviews'],
        summary:
          "Set an agency's rules (either or both; one left out keeps its value): with `replies_need_approval`, its stores' replies are asked for approval and go to Google once another person (the store, the agency or a manager) approves them; with `posts_need_approval`, its stores' posts wait (`awaiting_approval`) until another person approves them (ADR 0095). `user_id` is the agency's; a store answers 404. Kept in the audit log.",
        body: approvalSettingsBody,
        response: { 200: ok(approvalSettingsSchema) },
      },
    },
    async (req) =>
      okData(
        await approvals.saveSettings(actorOf(req).user, storeOf(req), req.body),
        req.body.replies_need_approval === undefined && req.body.posts_need_approval !== undefined
          ? postApprovalJa.settingsSaved
          : approvalJa.settingsSaved,
      ),
  );

  r.get(
    '/reviews/approvals',
    {
      ...guard('read', 'query'),
      schema: {
        tags: ['reviews'],
        summary:
          'Requests for approval of replies, of one store or several, newest first (paged: limit 5/10/25/50). `state`: open (pending, or failed at Google: waiting for a decision; the default), or one state. Each says whether the caller may decide on it or withdraw it.',
        querystring: approvalListQuery,
        response: { 200: ok(approvalListResponse) },
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
    '/reviews/:id/approvals',
    {
      ...guard('write', 'body', REVIEW),
      schema: {
        tags: ['reviews'],
        summary:
          "Ask for approval of a reply to the review (when the store's agency requires it; else 409). The text is checked as a send is (422 on `comment`); it waits, `pending`, for the store or its agency, who are mailed; it expires after 7 days. A request already open for the review is replaced. The answer is the review with its request.",
        params: idParams,
        body: approvalRequestBody,
        response: { 200: ok(reviewSchema) },
      },
    },
    async (req) =>
      okData(
        await approvals.request(actorOf(req).user, storeOf(req), Number(req.params.id), req.body),
        approvalJa.requested,
      ),
  );

  r.post(
    '/reviews/approvals/:id/approve',
    {
      ...guard('write', 'body', REQUEST),
      schema: {
        tags: ['reviews'],
        summary:
          "Approve a request and send the reply to Google at once, optionally with an edited `comment` (checked again; a blocking finding needs `override`). Not by its author (409). Decided already, by another approver or in another tab: 409, nothing sent. Google's refusal leaves it `failed`, to be approved again. The answer is the review.",
        params: idParams,
        body: approvalApproveBody,
        response: { 200: ok(reviewSchema) },
      },
    },
    async (req) =>
      okData(
        await approvals.approve(actorOf(req).user, storeOf(req), Number(req.params.id), req.body),
        approvalJa.approvedSent,
      ),
  );

  r.post(
    '/reviews/approvals/:id/reject',
    {
      ...guard('write', 'body', REQUEST),
      schema: {
        tags: ['reviews'],
        summary:
          'Send a request back to its author, with an optional note (up to 500 characters); the author is mailed. Not by its author (409).',
        params: idParams,
        body: approvalRejectBody,
        response: { 200: ok(reviewSchema) },
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
        approvalJa.rejected,
      ),
  );

  r.delete(
    '/reviews/approvals/:id',
    {
      ...guard('write', 'query', REQUEST),
      schema: {
        tags: ['reviews'],
        summary: 'Withdraw a request that still waits: by its author only (403 otherwise).',
        params: idParams,
        querystring: approvalWithdrawQuery,
        response: { 200: ok(reviewSchema) },
      },
    },
    async (req) =>
      okData(
        await approvals.withdraw(actorOf(req).user, storeOf(req), Number(req.params.id)),
        approvalJa.withdrawn,
      ),
  );
}
