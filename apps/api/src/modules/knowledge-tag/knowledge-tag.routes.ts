import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  ja,
  knowledgeTagEmbedQuery,
  knowledgeTagMessages,
  knowledgeTagQuery,
  knowledgeTagSchema,
  knowledgeTagSettingsRequest,
  ok,
  schemaMarkupRequest,
  schemaMarkupSchema,
} from '@tenpo/domain';
import { AppError } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import type { StoreAccess } from '../stores/access';
import type { KnowledgeTagService } from './knowledge-tag.service';
import { embedScript } from './knowledge-tag.script';
import { storeRoute, storeOf, open } from '../../plugins/route-guards';

/** The embed and view calls are public: per client address, this many a minute. */
export const EMBED_RATE_PER_MINUTE = 120;
/** Page views a tag (its api_key) reports, from every address together, this many a minute. */
export const VIEWS_PER_TAG_PER_MINUTE = 60;

/** The http(s) origin a Referer or Origin header names; null for anything else ("null" too). */
const originOfHeader = (h: unknown): string | null => {
  if (typeof h !== 'string' || h.length > 2000) return null;
  try {
    const u = new URL(h);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
};

/** The page that loaded the tag: its Referer's origin (the Origin header, else nothing). */
const pageOriginOf = (req: FastifyRequest): string | null =>
  originOfHeader(req.headers.referer) ?? originOfHeader(req.headers.origin);

/**
 * The page a view beacon comes from: its Origin header first (the browser sets it; a page's
 * script cannot), else its Referer's origin.
 */
const beaconOriginOf = (req: FastifyRequest): string | null =>
  originOfHeader(req.headers.origin) ?? originOfHeader(req.headers.referer);

/** Spec 2 §2, §7: /knowledge-tag, /add-knowledge-tag and its markup editor; the embed script. */
export function registerKnowledgeTagRoutes(
  app: FastifyInstance,
  deps: {
    knowledgeTag: KnowledgeTagService;
    access: StoreAccess;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const tags = ['knowledge-tag'];
  const kt = deps.knowledgeTag;
  /** A shop's page loads these: the tag's keys, and the store website's host, stand in for a session. */
  const limited = {
    rateLimit: { max: EMBED_RATE_PER_MINUTE, timeWindow: 60_000 },
    ...open("the tag's api_key and app_key name the store").config,
  };
  // Beside the per-address limit: one tag's views, whoever sends them (issue 22 item 10).
  const perTag = app.createRateLimit({
    max: VIEWS_PER_TAG_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (req) =>
      `knowledge-tag-view:${String((req.query as { api_key?: unknown }).api_key)}`,
  });

  r.get(
    '/knowledge-tag',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'query'),
      schema: {
        tags,
        summary:
          'The store’s knowledge tag: the keys of its script tag (made on first use), the analytics option, and whether the embed call has seen it (step 3 of /add-knowledge-tag).',
        querystring: knowledgeTagQuery,
        response: { 200: ok(knowledgeTagSchema) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await kt.tag(store));
    },
  );

  r.put(
    '/knowledge-tag/settings',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary:
          'Records the analytics option of the confirm modal (0 always on, 1 always off, 2 per-user opt-in); the script honours it.',
        body: knowledgeTagSettingsRequest,
        response: { 200: ok(knowledgeTagSchema) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(
        await kt.setAnalytics(store, req.body.analytics_option, actor.user),
        knowledgeTagMessages.settingsSaved,
      );
    },
  );

  r.get(
    '/knowledge-tag/schema-markup',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags,
        summary: 'The store’s JSON-LD template (the default until it saves one), and the default.',
        querystring: knowledgeTagQuery,
        response: { 200: ok(schemaMarkupSchema) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await kt.markup(store));
    },
  );

  r.put(
    '/knowledge-tag/schema-markup',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary:
          'Keeps the store’s JSON-LD template, used by the embed script; 422 with a Japanese message when it is not a JSON object or names an unknown {{placeholder}}.',
        body: schemaMarkupRequest,
        response: { 200: ok(schemaMarkupSchema) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(
        await kt.saveMarkup(store, req.body.template, actor.user),
        knowledgeTagMessages.templateSaved,
      );
    },
  );

  r.delete(
    '/knowledge-tag/schema-markup',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'query'),
      schema: {
        tags,
        summary: 'Reset: the store’s template becomes the default again.',
        querystring: knowledgeTagQuery,
        response: { 200: ok(schemaMarkupSchema) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(await kt.resetMarkup(store, actor.user), knowledgeTagMessages.templateReset);
    },
  );

  r.get(
    '/knowledge-tag/embed',
    {
      config: limited,
      schema: {
        tags,
        summary:
          'Public (no bearer, no API key: the keys are the credential). The script the shop’s page includes: it adds the store’s LocalBusiness JSON-LD and fills the page’s fields marked data-tenpo-field / data-kt-field. Records the call (first and last seen, page origin). Wrong keys: 404.',
        querystring: knowledgeTagEmbedQuery,
        response: { 200: z.string().describe('application/javascript') },
      },
    },
    async (req, reply) => {
      const payload = await kt.embed(req.query, pageOriginOf(req));
      return reply
        .header('content-type', 'application/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(embedScript(payload));
    },
  );

  r.post(
    '/knowledge-tag/view',
    {
      config: limited,
      schema: {
        tags,
        summary:
          'Public. A page view the script reports (sendBeacon), counted as the store’s analytics option allows. Wrong keys: 404.',
        querystring: knowledgeTagEmbedQuery,
      },
    },
    async (req, reply) => {
      const limit = await perTag(req);
      if (!limit.isAllowed && limit.isExceeded) {
        reply.header('retry-after', limit.ttlInSeconds);
        throw new AppError(429, 'rate_limited', ja.tooManyRequests);
      }
      await kt.view(req.query, beaconOriginOf(req));
      return reply.header('cross-origin-resource-policy', 'cross-origin').code(204).send();
    },
  );
}
