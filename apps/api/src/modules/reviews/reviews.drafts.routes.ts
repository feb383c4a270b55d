import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  idParams,
  ok,
  replyTemplateCreateBody,
  replyTemplateDeleteQuery,
  replyTemplateListQuery,
  replyTemplateListResponse,
  replyTemplateSchema,
  replyTemplateUpdateBody,
  reviewDraftBody,
  reviewDraftSchema,
  reviewTemplateJa,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import { storeOf, storeRoute } from '../../plugins/route-guards';
import type { StoreAccess } from '../stores/access';
import type { DraftsService } from './reviews.drafts';

const REVIEW = "the review is looked up by id among the named store's reviews";
const TEMPLATE =
  "the template is looked up by id among the named store's own and its agency's templates";

/** Reply templates and drafts (issue 25 item 4, ADR 0091, docs/product/reviews.md). */
export function registerReplyDraftRoutes(
  app: FastifyInstance,
  deps: { drafts: DraftsService; access: StoreAccess; authenticate: preHandlerAsyncHookHandler },
): void {
  const r = withZod(app);
  const { drafts } = deps;
  const guard = (mode: 'read' | 'write', from: 'query' | 'body', owner?: string) =>
    storeRoute(deps.authenticate, deps.access, mode, from, owner ? { owner } : {});

  r.get(
    '/reviews/templates',
    {
      ...guard('read', 'query'),
      schema: {
        tags: ['reviews'],
        summary:
          "The reply templates that serve a store, by star band (low ★1–2, mid ★3, high ★4–5): its own first, then its agency's (which serve every store of the agency); a band with neither has Tenpo's built-in ones. Each says where it comes from and whether the caller may change it. `llm_enabled`: drafts by a language model are configured.",
        querystring: replyTemplateListQuery,
        response: { 200: ok(replyTemplateListResponse) },
      },
    },
    async (req) => okData(await drafts.list(actorOf(req).user, storeOf(req))),
  );

  r.post(
    '/reviews/templates',
    {
      ...guard('write', 'body'),
      schema: {
        tags: ['reviews'],
        summary:
          "Add a reply template for a star band: `scope: store` for the named store, `scope: agency` for every store of the caller's agency (agency accounts only, else 403). The body may hold {reviewer_name} ({お客様名}: the reviewer's name with 様, or お客様) and {store_name} ({店舗名}); empty, over 4,096 bytes or another {variable} is a 422 on `body`. At most 20 a band per store or agency.",
        body: replyTemplateCreateBody,
        response: { 200: ok(replyTemplateSchema) },
      },
    },
    async (req) =>
      okData(
        await drafts.create(actorOf(req).user, storeOf(req), req.body),
        reviewTemplateJa.created,
      ),
  );

  r.patch(
    '/reviews/templates/:id',
    {
      ...guard('write', 'body', TEMPLATE),
      schema: {
        tags: ['reviews'],
        summary:
          "Change a template's band or body (checked as on creation). An agency's template is changed by the agency only (403).",
        params: idParams,
        body: replyTemplateUpdateBody,
        response: { 200: ok(replyTemplateSchema) },
      },
    },
    async (req) =>
      okData(
        await drafts.update(actorOf(req).user, storeOf(req), Number(req.params.id), req.body),
        reviewTemplateJa.updated,
      ),
  );

  r.delete(
    '/reviews/templates/:id',
    {
      ...guard('write', 'query', TEMPLATE),
      schema: {
        tags: ['reviews'],
        summary:
          "Delete a template. An agency's template is deleted by the agency only (403). A band left without templates falls back to the built-in ones.",
        params: idParams,
        querystring: replyTemplateDeleteQuery,
        response: { 200: ok(z.object({ id: z.number().int() })) },
      },
    },
    async (req) =>
      okData(
        await drafts.remove(actorOf(req).user, storeOf(req), Number(req.params.id)),
        reviewTemplateJa.deleted,
      ),
  );

  r.post(
    '/reviews/:id/draft',
    {
      ...guard('write', 'body', REVIEW),
      schema: {
        tags: ['reviews'],
        summary:
          "A draft reply to the review, never sent: `source: template` renders a template of the review's star band (never the one drawn last for the store and band when there is another); `source: llm` asks the configured language model (409 when none is configured; 502/503 when it fails). The draft comes with the compliance check's findings; the user edits it and sends it through POST /reviews/{id}/reply, which checks it again.",
        params: idParams,
        body: reviewDraftBody,
        response: { 200: ok(reviewDraftSchema) },
      },
    },
    async (req) =>
      okData(
        await drafts.draft(actorOf(req).user, storeOf(req), Number(req.params.id), req.body.source),
      ),
  );
}
