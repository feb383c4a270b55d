import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  formatPostDate,
  idField,
  idParams,
  isIdText,
  ja,
  POST_TOPIC_PATHS,
  postTopicListQuery,
  type PostTopicType,
  ok,
  POST_MAX_FILES,
  postCreatedSchema,
  postListQuery,
  postListResponse,
  postOneQuery,
  postSchema,
  postApprovalJa,
} from '@tenpo/domain';
import type { Clock } from '../../lib/clock';
import { validationError } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { registerUploadRoutes, withMultipart, type ImageRule } from '../../lib/uploads';
import { actorOf, type Actor } from '../../plugins/auth';
import type { MediaStorage } from '../../storage';
import type { StoreAccess } from '../stores/access';
import type { PostsService } from './posts.service';
import { validateTopic, type RequestMedium } from './posts.validate';
import type { StoredTopic } from './posts.draft';
import { multipartStoreRoute, signedIn, storeRoute, storesOf } from '../../plugins/route-guards';

/** Files of a post are stored here (ADR 0021 key layout). */
const MEDIA_FOLDER = 'media/posts';
/** `medias[3]` → 3; `medias` / `medias[]` (no index) come in the order sent. */
const MEDIA_FIELD = /^medias(?:\[(\d*)\])?$/;
/** More file fields than this are not read at all (the parser's own cap is 10 files). */
const MEDIA_SLOTS = 20;

/** The page asked for: by number, or next to a page shown by its cursor (ADR 0098). */
const keysetOf = (q: { page: number; limit: number; after?: string; before?: string }) => ({
  page: q.page,
  perPage: q.limit,
  after: q.after,
  before: q.before,
});

/** A form's `user_id`: comma-separated ids (issue 22 item 8: digits only); anything else is no store. */
const storeIdsOf = (text: string | undefined): number[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(isIdText)
    .map(Number);

type PostRouteDeps = {
  posts: PostsService;
  access: StoreAccess;
  storage: MediaStorage;
  clock: Clock;
  authenticate: preHandlerAsyncHookHandler;
};

/** The multipart routes: a post made (stores × channels, or a Google topic), a topic edited. */
function registerPostUploads(app: FastifyInstance, deps: PostRouteDeps): void {
  const { posts, access, storage, clock } = deps;

  const rule: ImageRule = { accept: 'media', folder: MEDIA_FOLDER };
  const rules: Record<string, ImageRule> = { medias: rule, 'medias[]': rule };
  for (let i = 0; i < MEDIA_SLOTS; i++) rules[`medias[${i}]`] = rule;

  /** The stores are checked before a file is read, when user_id came first (issue 22). */
  const early = (actor: Actor) => ({
    userId: actor.user.id,
    authorize: async (fields: Record<string, string>) => {
      // Digits only (issue 22 item 8); the form's own check answers the rest with 422.
      const ids = storeIdsOf(fields.user_id);
      if (ids.length) await access.storesFor(actor, ids, 'write');
    },
  });

  // A multipart route: @fastify/multipart lives in the upload routes' scope (ADR 0029).
  registerUploadRoutes(app, (scope) => {
    const u = withZod(scope);
    u.post(
      '/posts',
      {
        ...multipartStoreRoute(deps.authenticate, 'write'),
        schema: {
          tags: ['posts'],
          summary:
            'Create a post for one store or several (multipart: user_id (comma-separated or repeated), content, button_type, button_link, phone_number, shared_sns_type (comma-separated publisher keys), publish_date, delete_date (yyyy-MM-dd HH:mm:ss, Tokyo), medias[n] files or existing /uploads/ URLs). One target per store × channel is delivered by the post.publish job.',
          consumes: ['multipart/form-data'],
          response: { 200: ok(postCreatedSchema) },
        },
      },
      (req) => create(req),
    );
    const create = async (req: FastifyRequest, kind?: PostTopicType) => {
      const actor = actorOf(req);
      const result = await withMultipart(
        req,
        storage,
        rules,
        async ({ fields, files }) => {
          const media: RequestMedium[] = [];
          let order = 1000;
          for (const [name, part] of Object.entries(files)) {
            const m = MEDIA_FIELD.exec(name);
            if (m && part) media.push({ from: 'file', index: m[1] ? Number(m[1]) : order++, part });
          }
          for (const [name, value] of Object.entries(fields)) {
            const m = MEDIA_FIELD.exec(name);
            if (m && value.trim())
              for (const url of value.split(/\s*,\s*(?=\/|https?:)/))
                media.push({ from: 'url', index: m[1] ? Number(m[1]) : order++, url });
          }
          // Who may act for the stores comes first: a foreign store is 404 before any 422.
          const ids = storeIdsOf(fields.user_id);
          const stores = ids.length ? await access.storesFor(actor, ids, 'write') : [];
          return posts.submit({ actor: actor.user, stores, fields, media, kind });
        },
        { repeated: ['user_id'], ...early(actor) },
      );
      // Posts held for approval (ADR 0095) say so: they go out once approved.
      const held = result.held_count;
      return okData(
        result,
        held
          ? postApprovalJa.created(held, result.post_count)
          : kind
            ? ja.topicCreated
            : ja.postCreated,
      );
    };
    for (const [path, kind] of Object.entries(POST_TOPIC_PATHS)) {
      u.post(
        `/posts/${path}`,
        {
          ...multipartStoreRoute(deps.authenticate, 'write'),
          schema: {
            tags: ['posts'],
            summary: `Create ${kind === 'news' ? 'a news post' : `an ${kind}`} for Google (multipart: as POST /posts, Google only${kind === 'news' ? '' : kind === 'event' ? '; title, start_date, end_date (yyyy-MM-dd HH:mm:ss, Tokyo)' : '; title, start_date, end_date, coupon_code, redeem_link, terms'}). A Google local post of type ${kind === 'news' ? 'STANDARD' : kind.toUpperCase()} (ADR 0030).`,
            consumes: ['multipart/form-data'],
            response: { 200: ok(postCreatedSchema) },
          },
        },
        (req) => create(req, kind),
      );
      u.post(
        `/posts/${path}/:id`,
        {
          ...multipartStoreRoute(deps.authenticate, 'write', {
            owner: "the post is looked up by id among the named store's",
          }),
          schema: {
            tags: ['posts'],
            summary: `Edit ${path} (multipart: user_id, content and the type's fields; media are kept). A live post is patched at Google (updateMask); a scheduled one is sent as edited.`,
            consumes: ['multipart/form-data'],
            params: idParams,
            response: { 200: ok(z.array(postSchema)) },
          },
        },
        async (req) => {
          const actor = actorOf(req);
          const view = await withMultipart(
            req,
            storage,
            {},
            async ({ fields }) => {
              const stores = await access.storesFor(actor, storeIdsOf(fields.user_id), 'write');
              const b = await posts.topicPost(
                req.params.id,
                kind,
                stores.map((x) => x.id),
              );
              const old = b.post.topic ? (JSON.parse(b.post.topic) as StoredTopic) : null;
              const was = (k: keyof StoredTopic) => {
                const v = old?.[k];
                return v && (k === 'start' || k === 'end')
                  ? formatPostDate(new Date(v))
                  : (v ?? undefined);
              };
              const merged = {
                title: fields.title ?? was('title'),
                start_date: fields.start_date ?? was('start'),
                end_date: fields.end_date ?? was('end'),
                coupon_code: fields.coupon_code ?? was('coupon_code'),
                redeem_link: fields.redeem_link ?? was('redeem_link'),
                terms: fields.terms ?? was('terms'),
              };
              const content = (fields.content ?? b.post.content).trim();
              if (!content) throw validationError({ content: [ja.postContentRequired] });
              const topic = validateTopic(kind, merged, clock.now());
              return posts.updateTopic(b, { content, topic }, actor.user);
            },
            early(actor),
          );
          return okData([view], ja.topicUpdated);
        },
      );
    }
  });
}

/** The Google topic posts (news, events, offers) read and deleted, by their own paths. */
function registerTopicRoutes(app: FastifyInstance, deps: PostRouteDeps): void {
  const r = withZod(app);
  const { posts } = deps;
  for (const [path, kind] of Object.entries(POST_TOPIC_PATHS)) {
    r.get(
      `/posts/${path}`,
      {
        ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
        schema: {
          tags: ['posts'],
          summary: `The ${path} of one store or several, newest first (paged, 10 a page by default; by \`page\`, or \`after\` / \`before\` with the cursors of the page shown).`,
          querystring: postTopicListQuery,
          response: { 200: ok(postListResponse) },
        },
      },
      async (req) => {
        const q = req.query;
        const stores = storesOf(req);
        const ids = stores.map((x) => x.id);
        return okData({
          data: await posts.page(ids, { search: q.post_key_search, postType: kind }, keysetOf(q)),
        });
      },
    );
    r.get(
      `/posts/${path}/:id`,
      {
        ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
        schema: {
          tags: ['posts'],
          summary: `One of the ${path} (data[0])`,
          params: idParams,
          querystring: postOneQuery,
          response: { 200: ok(z.array(postSchema)) },
        },
      },
      async (req) => {
        const stores = storesOf(req);
        const ids = stores.map((x) => x.id);
        const b = await posts.topicPost(req.params.id, kind, ids);
        return okData([await posts.one(b.post.id, ids)]);
      },
    );
    r.delete(
      `/posts/${path}/:id`,
      {
        ...storeRoute(deps.authenticate, deps.access, 'write', 'query'),
        schema: {
          tags: ['posts'],
          summary: `Delete one of the ${path}: removed at Google now (a scheduled one is never sent)`,
          params: idParams,
          querystring: postOneQuery,
          response: { 200: ok(z.array(postSchema)) },
        },
      },
      async (req) => {
        const actor = actorOf(req);
        const stores = storesOf(req);
        const ids = stores.map((x) => x.id);
        const b = await posts.topicPost(req.params.id, kind, ids);
        return okData([await posts.removeTopic(b, actor.user)], ja.topicDeleted);
      },
    );
  }
}

export function registerPostRoutes(app: FastifyInstance, deps: PostRouteDeps): void {
  const r = withZod(app);
  const { posts, access } = deps;

  registerPostUploads(app, deps);
  registerTopicRoutes(app, deps);

  r.get(
    '/posts',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags: ['posts'],
        summary: `The posts of one store or several, newest first (paged: limit 5/10/25/50, 5 by default; by \`page\`, or \`after\` / \`before\` with the cursors of the page shown; post_key_search in the content). Each row lists its targets (store × channel) with state, time, live link and error lines. At most ${POST_MAX_FILES} media a post.`,
        querystring: postListQuery,
        response: { 200: ok(postListResponse) },
      },
    },
    async (req) => {
      const q = req.query;
      const stores = storesOf(req);
      const ids = stores.map((s) => s.id);
      const type =
        q.post_type === 'all' ? undefined : q.post_type === 'whatNew' ? 'news' : q.post_type;
      return okData({
        data: await posts.page(ids, { search: q.post_key_search, postType: type }, keysetOf(q)),
      });
    },
  );

  r.get(
    '/posts/:id',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags: ['posts'],
        summary: 'One post (data[0]) with its media and targets',
        params: idParams,
        querystring: postOneQuery,
        response: { 200: ok(z.array(postSchema)) },
      },
    },
    async (req) => {
      const stores = storesOf(req);
      return okData([
        await posts.one(
          req.params.id,
          stores.map((s) => s.id),
        ),
      ]);
    },
  );

  r.post(
    '/posts/:id/targets/:targetId/retry',
    {
      ...signedIn(
        deps.authenticate,
        "the post's store is looked up and checked for write (stores/access.ts)",
      ),
      schema: {
        tags: ['posts'],
        summary:
          'Send a failed target (one store × channel) again; one whose outcome is unknown is first looked up at the provider. Not in the spec: the post list needs it.',
        params: idParams.extend({ targetId: idField() }),
        response: { 200: ok(z.array(postSchema)) },
      },
    },
    async (req) => {
      const storeId = await posts.storeOf(req.params.id);
      await access.storeFor(actorOf(req), storeId, 'write');
      return okData([await posts.retry(req.params.id, req.params.targetId)], ja.postRetryAccepted);
    },
  );
}
