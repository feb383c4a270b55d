import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyObject, field, numericId, type Dict } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { forbidden, invalidRequest, problem } from './x.errors';
import { ENDPOINTS, xGuard, type Endpoint, type XCtx } from './x.guard';
import { mediaState, registerXMedia } from './x.media';
import { MAX_WEIGHTED_LENGTH, tcoLink, URL_RE, weightedLength } from './x.text';
import { xUsers, type XMedia, type XState, type XTweet } from './x.state';

export function registerXApi(app: FastifyInstance, rt: Runtime, store: JsonStore<XState>): void {
  const ctx: XCtx = { rt, store, guard: xGuard(rt, store) };
  registerXPosts(app, ctx);
  registerXTimeline(app, ctx);
  registerXMedia(app, ctx);
}

/**
 * A post's text as X returns it: every link wrapped as a t.co link (twitter-text counts each
 * as 23 characters, §4.6, because that is what the post holds), and for a post with media the
 * media's own t.co link appended. The text as sent is kept for the duplicate check.
 */
const shownText = (tw: XTweet): string => {
  const wrapped = tw.text.replace(URL_RE, (_u, at: number) => tcoLink(`${tw.id}:${at}`));
  const media = tw.mediaIds.length ? tcoLink(`${tw.id}:media`) : '';
  return [wrapped, media].filter(Boolean).join(' ');
};
/** The tweet.fields and expansions asked for: attachments come with either. */
const wantsAttachments = (req: FastifyRequest) =>
  (field(req, 'tweet.fields') ?? '').split(',').includes('attachments') ||
  (field(req, 'expansions') ?? '').split(',').includes('attachments.media_keys');
const attachmentsOf = ({ store }: XCtx, tw: XTweet) => {
  const s = () => store.data;
  const keys = tw.mediaIds.map((id) => {
    const m = s().media.find((x) => x.id === id);
    return `${m?.kind === 'video' ? 7 : m?.kind === 'gif' ? 16 : 3}_${id}`;
  });
  return keys.length ? { attachments: { media_keys: keys } } : {};
};

/** users/me, and creating and deleting posts. */
function registerXPosts(app: FastifyInstance, ctx: XCtx): void {
  const { rt, store, guard } = ctx;
  const s = () => store.data;

  // ---- users -------------------------------------------------------------------------------------
  app.get('/x/api/2/users/me', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.me as Endpoint);
    const u = xUsers.find((x) => x.id === t.userId);
    return { data: { id: u?.id, name: u?.name, username: u?.username } };
  });

  app.post('/x/api/2/tweets', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.createTweet as Endpoint);
    const body = bodyObject(req);
    const text = typeof body.text === 'string' ? body.text : undefined;
    const media = (body.media ?? undefined) as Dict | undefined;
    const ids = Array.isArray(media?.media_ids) ? (media?.media_ids as unknown[]).map(String) : [];
    if (body.text !== undefined && typeof body.text !== 'string')
      throw invalidRequest('$.text: string expected', 'text', [String(body.text)]);
    if (!text && ids.length === 0)
      throw invalidRequest('You must specify either a Tweet text or a media attachment.', 'text', [
        '',
      ]);
    if (text && weightedLength(text) > MAX_WEIGHTED_LENGTH)
      throw invalidRequest(
        `The text field is too long (${weightedLength(text)} of ${MAX_WEIGHTED_LENGTH} weighted characters).`,
        'text',
        [text],
      );
    if (media && body.poll)
      throw invalidRequest('The fields `media` and `poll` are mutually exclusive.', 'media', []);
    if (media && (ids.length < 1 || ids.length > 4))
      throw invalidRequest(
        'The media.media_ids field must contain between 1 and 4 items.',
        'media.media_ids',
        ids,
      );
    const items: XMedia[] = [];
    for (const id of ids) {
      const m = s().media.find((x) => x.id === id && x.userId === t.userId);
      if (!m || mediaState(rt, m) !== 'succeeded' || (m.expiresAt ?? 0) <= rt.now())
        throw invalidRequest(`Your media IDs are invalid.`, 'media.media_ids', [id]);
      items.push(m);
    }
    if (items.length > 1 && items.some((m) => m.kind !== 'photo'))
      throw invalidRequest(
        'A post can have 4 photos, or 1 GIF, or 1 video.',
        'media.media_ids',
        ids,
      );
    const reply_ = body.reply as Dict | undefined;
    if (reply_?.in_reply_to_tweet_id) {
      const target = s().tweets.find(
        (x) => x.id === String(reply_.in_reply_to_tweet_id) && !x.deleted,
      );
      if (!target)
        throw invalidRequest(
          'The in_reply_to_tweet_id does not exist.',
          'reply.in_reply_to_tweet_id',
          [String(reply_.in_reply_to_tweet_id)],
        );
      if (target.userId !== t.userId)
        throw forbidden(
          'Reply to this conversation is not allowed because you have not been mentioned or otherwise engaged by the author of the post you are replying to.',
        );
    }
    if (text && s().tweets.some((x) => x.userId === t.userId && !x.deleted && x.text === text))
      throw forbidden('You are not allowed to create a Tweet with duplicate content.');
    const id = numericId(19);
    const tweet: XTweet = {
      id,
      userId: t.userId,
      text: text ?? '',
      createdAt: rt.now(),
      mediaIds: ids,
      replyTo: reply_?.in_reply_to_tweet_id ? String(reply_.in_reply_to_tweet_id) : undefined,
      deleted: false,
    };
    s().tweets.push(tweet);
    store.save();
    reply.code(201);
    return { data: { id, text: shownText(tweet), edit_history_tweet_ids: [id] } };
  });

  app.delete<{ Params: { id: string } }>('/x/api/2/tweets/:id', async (req, reply) => {
    const t = await guard(req, reply, ENDPOINTS.deleteTweet as Endpoint);
    const tw = s().tweets.find((x) => x.id === req.params.id && !x.deleted);
    if (!tw)
      throw problem(
        404,
        'Not Found Error',
        `Could not find tweet with id: [${req.params.id}].`,
        'https://api.x.com/2/problems/resource-not-found',
      );
    if (tw.userId !== t.userId)
      throw forbidden('You are not allowed to delete a Tweet that was not created by you.');
    tw.deleted = true;
    store.save();
    return { data: { deleted: true } };
  });
}

/** Reading posts: one by id, and a user's timeline. */
function registerXTimeline(app: FastifyInstance, ctx: XCtx): void {
  const { store, guard } = ctx;
  const s = () => store.data;

  app.get<{ Params: { id: string } }>('/x/api/2/tweets/:id', async (req, reply) => {
    await guard(req, reply, ENDPOINTS.getTweet as Endpoint);
    const tw = s().tweets.find((x) => x.id === req.params.id && !x.deleted);
    if (!tw)
      return {
        errors: [
          {
            value: req.params.id,
            detail: `Could not find tweet with id: [${req.params.id}].`,
            title: 'Not Found Error',
            resource_type: 'tweet',
            parameter: 'id',
            resource_id: req.params.id,
            type: 'https://api.x.com/2/problems/resource-not-found',
          },
        ],
      };
    return {
      data: {
        id: tw.id,
        text: shownText(tw),
        edit_history_tweet_ids: [tw.id],
        author_id: tw.userId,
        created_at: new Date(tw.createdAt).toISOString(),
        ...(wantsAttachments(req) ? attachmentsOf(ctx, tw) : {}),
      },
    };
  });

  // The user's timeline, newest first (GET /2/users/:id/tweets): max_results 5–100,
  // start_time (RFC 3339), tweet.fields=created_at.
  app.get<{ Params: { id: string } }>('/x/api/2/users/:id/tweets', async (req, reply) => {
    await guard(req, reply, ENDPOINTS.userTweets as Endpoint);
    const max = Number(field(req, 'max_results') ?? 10);
    if (!Number.isInteger(max) || max < 5 || max > 100)
      throw invalidRequest(
        `The \`max_results\` query parameter value [${String(max)}] is not between 5 and 100`,
        'max_results',
        [String(max)],
      );
    const start = field(req, 'start_time');
    const since = start ? Date.parse(start) : Number.NEGATIVE_INFINITY;
    if (Number.isNaN(since))
      throw invalidRequest('Invalid start_time', 'start_time', [String(start)]);
    // Paged as X documents (docs.x.com/x-api/fundamentals/pagination): `meta.next_token` while
    // more remain, sent back as `pagination_token`; the token names the last tweet shown, so
    // tweets made meanwhile (they go on top) neither shift nor repeat the pages after it.
    const all = s()
      .tweets.map((x, i) => ({ x, i }))
      .filter(({ x }) => x.userId === req.params.id && !x.deleted && x.createdAt >= since)
      .sort((a, b) => b.x.createdAt - a.x.createdAt || b.i - a.i)
      .map(({ x }) => x);
    const token = field(req, 'pagination_token');
    let from = 0;
    if (token) {
      const [dir, id] = Buffer.from(token, 'base64url').toString().split(':');
      const at = all.findIndex((x) => x.id === id);
      if (!dir || !id || at < 0)
        throw invalidRequest(
          `The \`pagination_token\` query parameter value [${token}] is not valid`,
          'pagination_token',
          [token],
        );
      from = dir === 'n' ? at + 1 : Math.max(0, at - max);
    }
    const list = all.slice(from, from + max);
    const tokenOf = (dir: 'n' | 'p', id: string | undefined) =>
      Buffer.from(`${dir}:${id ?? ''}`).toString('base64url');
    const withTime = (field(req, 'tweet.fields') ?? '').split(',').includes('created_at');
    const withMedia = wantsAttachments(req);
    const data = list.map((tw) => ({
      id: tw.id,
      text: shownText(tw),
      edit_history_tweet_ids: [tw.id],
      ...(withTime ? { created_at: new Date(tw.createdAt).toISOString() } : {}),
      ...(withMedia ? attachmentsOf(ctx, tw) : {}),
    }));
    return {
      ...(data.length ? { data } : {}),
      meta: {
        result_count: data.length,
        ...(data.length ? { newest_id: data[0]?.id, oldest_id: data[data.length - 1]?.id } : {}),
        ...(from + max < all.length ? { next_token: tokenOf('n', list[list.length - 1]?.id) } : {}),
        ...(from > 0 && list.length ? { previous_token: tokenOf('p', list[0]?.id) } : {}),
      },
    };
  });
}
