import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  bodyObject,
  field,
  isHttpUrl,
  numericId,
  PathRouter,
  randomToken,
  type Dict,
} from '../shared/http';
import {
  isVideo,
  loadMediaUrl,
  mimeOf,
  probeMedia,
  type FetchedMedia,
  type FetchLogEntry,
  type MediaInfo,
} from '../shared/media';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { authenticate } from './google.auth';
import {
  gError,
  notFound,
  permissionDenied,
  unknownPath,
  v4ValidationError,
} from './google.errors';
import { decodePage, encodePage, intParam } from './google.business';
import type { GLocation, GMedia, GoogleState, GPost } from './google.state';

const SERVICE = 'mybusiness.googleapis.com';
const ACTION_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'GET_OFFER', 'CALL'];
const TOPICS = ['STANDARD', 'EVENT', 'OFFER', 'ALERT'];
const MEDIA_CATEGORIES = [
  'COVER',
  'PROFILE',
  'LOGO',
  'EXTERIOR',
  'INTERIOR',
  'PRODUCT',
  'AT_WORK',
  'FOOD_AND_DRINK',
  'MENU',
  'COMMON_AREA',
  'ROOMS',
  'TEAMS',
  'ADDITIONAL',
];
/** A summary containing this marker is REJECTED by the emulator's "review", to exercise that state. */
export const REJECT_MARKER = 'sandbox:reject';

type Violation = { code: number; field: string; message: string; value?: string };

/** Photo and video rules of Business Profile media (GBP help, as quoted in providers.md §1.7). */
export function mediaViolations(info: MediaInfo, format: string, fieldName: string): Violation[] {
  const v: Violation[] = [];
  if (format === 'PHOTO') {
    if (info.format !== 'jpeg' && info.format !== 'png')
      v.push({ code: 3, field: fieldName, message: 'Unsupported photo format. Use JPG or PNG.' });
    else {
      if (info.bytes < 10 * 1024)
        v.push({
          code: 3,
          field: fieldName,
          message: 'Photo is too small. Minimum size is 10 KB.',
        });
      if (info.bytes > 5 * 1024 * 1024)
        v.push({ code: 3, field: fieldName, message: 'Photo is too large. Maximum size is 5 MB.' });
      if ((info.width ?? 0) < 250 || (info.height ?? 0) < 250)
        v.push({
          code: 3,
          field: fieldName,
          message: 'Photo resolution is too low. Minimum is 250 x 250 pixels.',
        });
    }
  } else if (format === 'VIDEO') {
    if (!isVideo(info.format))
      v.push({ code: 3, field: fieldName, message: 'Unsupported video format.' });
    else {
      if (info.bytes > 75 * 1024 * 1024)
        v.push({
          code: 3,
          field: fieldName,
          message: 'Video is too large. Maximum size is 75 MB.',
        });
      if ((info.durationSeconds ?? 0) > 30)
        v.push({ code: 3, field: fieldName, message: 'Video duration exceeds 30 seconds' });
    }
  } else v.push({ code: 3, field: 'media_format', message: 'media_format must be PHOTO or VIDEO' });
  return v;
}

export function registerGoogleV4(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  const s = () => store.data;
  const router = new PathRouter();
  const parent = async (
    req: FastifyRequest,
    accountId: string,
    locationId: string,
  ): Promise<GLocation> => {
    const caller = await authenticate(req, rt, store, SERVICE, { legacyScope: true });
    const loc = s().locations.find((l) => l.id === locationId && l.accountId === accountId);
    if (!loc) throw notFound();
    if (!caller.accountIds.includes(accountId)) throw permissionDenied();
    return loc;
  };
  const stamp = () => new Date(rt.now()).toISOString();

  /** PROCESSING until Google's review is done; the emulator finishes it on the first read after the delay. */
  const settle = (p: GPost): boolean => {
    if (p.post.state === 'PROCESSING' && rt.now() >= p.liveAt) {
      p.post.state = p.reject ? 'REJECTED' : 'LIVE';
      return true;
    }
    return false;
  };

  type Loaded = {
    info: MediaInfo;
    bytes?: Buffer;
    fetched?: FetchedMedia;
    entry?: FetchLogEntry;
  };
  /** A URL Google cannot fetch: answered as recorded (fixtures/google-errors), no field, no value. */
  const loadBytes = async (url: string): Promise<Loaded> => {
    const got = await loadMediaUrl(rt, 'google', url, 80 * 1024 * 1024);
    if (!got.ok) throw v4ValidationError([{ code: 1000, message: 'Fetching image failed.' }]);
    return got;
  };

  /** A v4 `Date` ({year, month, day}) and optional `TimeOfDay` as epoch ms (UTC is enough to order them). */
  const dateMs = (d: unknown, t: unknown): number | undefined => {
    if (!d || typeof d !== 'object') return undefined;
    const { year, month, day } = d as Dict;
    if (![year, month, day].every((x) => Number.isInteger(x))) return undefined;
    const ms = Date.UTC(year as number, (month as number) - 1, day as number);
    const dt = new Date(ms);
    if (dt.getUTCMonth() !== (month as number) - 1 || dt.getUTCDate() !== day) return undefined;
    const tod = (t && typeof t === 'object' ? t : {}) as Dict;
    return (
      ms +
      (Number(tod.hours ?? 0) * 3600 + Number(tod.minutes ?? 0) * 60 + Number(tod.seconds ?? 0)) *
        1000
    );
  };

  const validatePost = async (
    body: Dict,
    partialMask?: string[],
    loaded: Loaded[] = [],
  ): Promise<Violation[]> => {
    const v: Violation[] = [];
    const has = (f: string) => !partialMask || partialMask.includes(f);
    const topic = String(body.topicType ?? 'STANDARD');
    if (has('topicType') && !TOPICS.includes(topic))
      v.push({ code: 3, field: 'topic_type', message: `Invalid topic type: ${topic}` });
    const summary = body.summary;
    if (
      has('summary') &&
      summary !== undefined &&
      (typeof summary !== 'string' || summary.length > 1500)
    )
      v.push({
        code: 3,
        field: 'summary',
        message: 'Summary must be a string of at most 1500 characters.',
      });
    const media = Array.isArray(body.media) ? (body.media as Dict[]) : [];
    if (!partialMask && topic === 'STANDARD' && !summary && media.length === 0)
      v.push({ code: 2, field: 'summary', message: 'A standard post needs a summary or media.' });
    if (has('event') && (topic === 'EVENT' || topic === 'OFFER')) {
      const ev = body.event as Dict | undefined;
      const sch = ev?.schedule as Dict | undefined;
      if (!ev || typeof ev.title !== 'string' || !ev.title)
        v.push({ code: 2, field: 'event.title', message: 'Event title is required.' });
      if (!sch?.startDate || !sch?.endDate)
        v.push({
          code: 2,
          field: 'event.schedule',
          message: 'Event schedule with start and end date is required.',
        });
      else {
        const start = dateMs(sch.startDate, sch.startTime);
        const end = dateMs(sch.endDate, sch.endTime);
        if (start === undefined)
          v.push({ code: 3, field: 'event.schedule.start_date', message: 'Invalid date.' });
        if (end === undefined)
          v.push({ code: 3, field: 'event.schedule.end_date', message: 'Invalid date.' });
        if (start !== undefined && end !== undefined && end < start)
          v.push({
            code: 3,
            field: 'event.schedule',
            message: 'The end of the event must be after its start.',
          });
      }
    }
    if (has('offer') && topic === 'OFFER' && body.offer !== undefined) {
      const offer = body.offer as Dict;
      if (!offer || typeof offer !== 'object')
        v.push({ code: 3, field: 'offer', message: 'offer must be an object.' });
      else {
        if (offer.redeemOnlineUrl !== undefined && !isHttpUrl(offer.redeemOnlineUrl as string))
          v.push({
            code: 3,
            field: 'offer.redeem_online_url',
            message: 'redeem_online_url must be a valid URL.',
          });
        if (offer.couponCode !== undefined && typeof offer.couponCode !== 'string')
          v.push({ code: 3, field: 'offer.coupon_code', message: 'coupon_code must be a string.' });
        if (offer.termsConditions !== undefined && typeof offer.termsConditions !== 'string')
          v.push({
            code: 3,
            field: 'offer.terms_conditions',
            message: 'terms_conditions must be a string.',
          });
      }
    }
    if (body.offer !== undefined && topic !== 'OFFER')
      v.push({ code: 3, field: 'offer', message: 'offer is only allowed for OFFER posts.' });
    if (topic === 'ALERT' && body.alertType !== 'COVID_19')
      v.push({
        code: 3,
        field: 'alert_type',
        message: 'alert_type must be COVID_19 for ALERT posts.',
      });
    const cta = body.callToAction as Dict | undefined;
    if (has('callToAction') && cta && topic !== 'OFFER') {
      const type = String(cta.actionType ?? '');
      if (!ACTION_TYPES.includes(type))
        v.push({
          code: 3,
          field: 'call_to_action.action_type',
          message: `Invalid action type: ${type}`,
        });
      else if (type === 'CALL' && cta.url)
        v.push({
          code: 3,
          field: 'call_to_action.url',
          message: 'CALL actions must not have a url.',
        });
      else if (type !== 'CALL' && !isHttpUrl(cta.url as string | undefined))
        v.push({ code: 3, field: 'call_to_action.url', message: 'A valid url is required.' });
    }
    if (has('media')) {
      if (media.length > 10)
        v.push({ code: 3, field: 'media', message: 'At most 10 media items per post.' });
      for (const [i, m] of media.entries()) {
        if (!isHttpUrl(m.sourceUrl as string | undefined)) {
          v.push({
            code: 3,
            field: `media[${i}].source_url`,
            message: 'Media on posts need a public source_url.',
          });
          continue;
        }
        const got = await loadBytes(m.sourceUrl as string);
        loaded[i] = got;
        v.push(...mediaViolations(got.info, String(m.mediaFormat ?? ''), `media[${i}]`));
      }
    }
    return v;
  };

  const POSTS = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/localPosts$/;
  const POST = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/localPosts\/([^/]+)$/;
  const postJson = (p: GPost) => p.post;

  router.add('POST', POSTS, async (req, _reply, [a, l]) => {
    const loc = await parent(req, a as string, l as string);
    const body = bodyObject(req);
    const loaded: Loaded[] = [];
    const v = await validatePost(body, undefined, loaded);
    if (v.length) throw v4ValidationError(v);
    const id = numericId(19);
    const t = stamp();
    const cid =
      /cid=(\d+)/.exec(String((loc.location.metadata as Dict | undefined)?.mapsUri ?? ''))?.[1] ??
      loc.id;
    const allowed = [
      'languageCode',
      'summary',
      'callToAction',
      'event',
      'topicType',
      'alertType',
      'offer',
      'media',
    ];
    const post: Dict = Object.fromEntries(
      Object.entries(body).filter(([k]) => allowed.includes(k)),
    );
    if (!post.topicType) post.topicType = 'STANDARD';
    if (post.topicType === 'OFFER') delete post.callToAction;
    const fetched: FetchedMedia[] = [];
    if (Array.isArray(post.media))
      post.media = (post.media as Dict[]).map((m, i) => {
        // Google keeps its own copy of what it fetched and serves it from its own host.
        const got = loaded[i];
        const key = `p${id}-${i}`;
        if (got?.bytes) rt.blobs.put(`google-media-${key}`, got.bytes);
        if (got?.fetched) fetched.push(got.fetched);
        if (got?.entry) got.entry.object_id = `accounts/${a}/locations/${l}/localPosts/${id}`;
        return {
          name: `accounts/${a}/locations/${l}/media/${key}`,
          mediaFormat: m.mediaFormat,
          googleUrl: got?.bytes ? `${rt.baseUrl}/google/lh3/${key}` : m.sourceUrl,
          ...(got?.info.width
            ? { dimensions: { widthPixels: got.info.width, heightPixels: got.info.height } }
            : {}),
        };
      });
    Object.assign(post, {
      name: `accounts/${a}/locations/${l}/localPosts/${id}`,
      createTime: t,
      updateTime: t,
      state: 'PROCESSING',
      searchUrl: `https://local.google.com/place?id=${cid}&use=posts&lpsid=${id}`,
    });
    s().posts.push({
      id,
      accountId: a as string,
      locationId: l as string,
      post,
      deleted: false,
      liveAt: rt.now() + rt.settings().google.postLiveAfterMs,
      reject: typeof body.summary === 'string' && body.summary.includes(REJECT_MARKER),
      ...(fetched.length ? { fetched } : {}),
    });
    store.save();
    return post;
  });

  router.add('GET', POSTS, async (req, _reply, [a, l]) => {
    await parent(req, a as string, l as string);
    const pageSize = intParam(req, ['pageSize'], 'page_size', 1, 100, 20);
    const offset = decodePage(field(req, 'pageToken'));
    const all = s()
      .posts.filter((p) => p.accountId === a && p.locationId === l && !p.deleted)
      .reverse();
    const page = all.slice(offset, offset + pageSize);
    if (page.map(settle).some(Boolean)) store.save();
    return {
      ...(page.length ? { localPosts: page.map(postJson) } : {}),
      ...(offset + pageSize < all.length ? { nextPageToken: encodePage(offset + pageSize) } : {}),
    };
  });

  const findPost = (a: string, l: string, id: string) => {
    const p = s().posts.find(
      (x) => x.accountId === a && x.locationId === l && x.id === id && !x.deleted,
    );
    if (!p) throw notFound();
    return p;
  };
  router.add('GET', POST, async (req, _reply, [a, l, id]) => {
    await parent(req, a as string, l as string);
    const p = findPost(a as string, l as string, id as string);
    if (settle(p)) store.save();
    return postJson(p);
  });
  router.add('PATCH', POST, async (req, _reply, [a, l, id]) => {
    await parent(req, a as string, l as string);
    const p = findPost(a as string, l as string, id as string);
    const mask = (field(req, 'updateMask') ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    if (mask.length === 0)
      throw v4ValidationError([
        { code: 2, field: 'update_mask', message: 'update_mask is required.' },
      ]);
    const editable = ['summary', 'callToAction', 'event', 'offer', 'media', 'alertType'];
    const bad = mask.filter((m) => !editable.includes(m.split('.')[0] ?? ''));
    if (bad.length)
      throw v4ValidationError(
        bad.map((b) => ({
          code: 3,
          field: 'update_mask',
          message: `Field cannot be updated: ${b}`,
        })),
      );
    const body = { ...p.post, ...bodyObject(req) };
    const v = await validatePost(body, mask);
    if (v.length) throw v4ValidationError(v);
    const patch = bodyObject(req);
    for (const m of mask) {
      const k = m.split('.')[0] as string;
      if (patch[k] === undefined) delete p.post[k];
      else p.post[k] = patch[k];
    }
    p.post.updateTime = stamp();
    p.post.state = 'PROCESSING';
    p.liveAt = rt.now() + rt.settings().google.postLiveAfterMs;
    p.reject = typeof p.post.summary === 'string' && p.post.summary.includes(REJECT_MARKER);
    store.save();
    return p.post;
  });
  router.add('DELETE', POST, async (req, _reply, [a, l, id]) => {
    await parent(req, a as string, l as string);
    const p = findPost(a as string, l as string, id as string);
    p.deleted = true;
    store.save();
    return {};
  });

  // ---- media ------------------------------------------------------------------------------
  const MEDIA = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/media$/;
  const ONE_MEDIA = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/media\/([^/:]+)$/;
  router.add(
    'POST',
    /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/media:startUpload$/,
    async (req, _reply, [a, l]) => {
      await parent(req, a as string, l as string);
      const resourceName = randomToken('AF1Qip', 30);
      s().uploads.push({
        resourceName,
        accountId: a as string,
        locationId: l as string,
        blob: `google-upload-${resourceName}`,
        uploaded: false,
      });
      store.save();
      return { resourceName };
    },
  );
  router.add('POST', /^upload\/v1\/media\/(.+)$/, async (req, _reply, [resourceName]) => {
    const caller = await authenticate(req, rt, store, SERVICE, { legacyScope: true });
    const up = s().uploads.find((u) => u.resourceName === resourceName);
    if (!up) throw notFound();
    if (!caller.accountIds.includes(up.accountId)) throw permissionDenied();
    const bytes = Buffer.isBuffer(req.body) ? req.body : undefined;
    if (!bytes || bytes.length === 0) throw gError(400, 'Upload request has no body.');
    rt.blobs.put(up.blob, bytes);
    up.uploaded = true;
    store.save();
    return { resourceName: up.resourceName };
  });
  router.add('POST', MEDIA, async (req, _reply, [a, l]) => {
    await parent(req, a as string, l as string);
    const body = bodyObject(req);
    const v: Violation[] = [];
    const format = String(body.mediaFormat ?? '');
    const assoc = (body.locationAssociation ?? {}) as Dict;
    if (!assoc.category && !assoc.priceListItemId)
      v.push({
        code: 2,
        field: 'location_association',
        message: 'location_association is required.',
      });
    else if (assoc.category && !MEDIA_CATEGORIES.includes(String(assoc.category)))
      v.push({
        code: 3,
        field: 'location_association.category',
        message: `Invalid category: ${String(assoc.category)}`,
      });
    const ref = (body.dataRef as Dict | undefined)?.resourceName;
    let info: MediaInfo | undefined;
    let bytes: Buffer | undefined;
    if (typeof ref === 'string') {
      const up = s().uploads.find(
        (u) => u.resourceName === ref && u.accountId === a && u.locationId === l && u.uploaded,
      );
      if (!up) v.push({ code: 3, field: 'data_ref', message: 'Unknown or empty upload resource.' });
      else {
        bytes = rt.blobs.get(up.blob);
        if (bytes) info = probeMedia(bytes);
      }
    } else if (isHttpUrl(body.sourceUrl as string | undefined)) {
      ({ info, bytes } = await loadBytes(body.sourceUrl as string));
    } else v.push({ code: 2, field: 'source_url', message: 'source_url or data_ref is required.' });
    if (info) v.push(...mediaViolations(info, format, 'media'));
    else if (!v.length)
      v.push({ code: 3, field: 'media_format', message: 'media_format must be PHOTO or VIDEO' });
    if (v.length) throw v4ValidationError(v);
    const key = randomToken('AF1Qip', 30);
    const blob = bytes ? `google-media-${key}` : undefined;
    if (bytes && blob) rt.blobs.put(blob, bytes);
    const url = blob ? `${rt.baseUrl}/google/lh3/${key}` : String(body.sourceUrl);
    const item: Dict = {
      name: `accounts/${a}/locations/${l}/media/${key}`,
      mediaFormat: format,
      locationAssociation: assoc,
      googleUrl: url,
      thumbnailUrl: url,
      createTime: stamp(),
      dimensions: { widthPixels: info?.width ?? 0, heightPixels: info?.height ?? 0 },
      insights: {},
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      ...(typeof ref === 'string'
        ? { dataRef: { resourceName: ref } }
        : { sourceUrl: body.sourceUrl }),
    };
    const record: GMedia = { key, accountId: a as string, locationId: l as string, item, blob };
    s().media.push(record);
    store.save();
    return item;
  });
  router.add('GET', MEDIA, async (req, _reply, [a, l]) => {
    await parent(req, a as string, l as string);
    const pageSize = intParam(req, ['pageSize'], 'page_size', 1, 2500, 100);
    const offset = decodePage(field(req, 'pageToken'));
    const all = s()
      .media.filter((m) => m.accountId === a && m.locationId === l)
      .reverse();
    return {
      ...(all.length
        ? { mediaItems: all.slice(offset, offset + pageSize).map((m) => m.item) }
        : {}),
      totalMediaItemCount: all.length,
      ...(offset + pageSize < all.length ? { nextPageToken: encodePage(offset + pageSize) } : {}),
    };
  });
  const findMedia = (a: string, l: string, key: string) => {
    const m = s().media.find((x) => x.accountId === a && x.locationId === l && x.key === key);
    if (!m) throw notFound();
    return m;
  };
  router.add('GET', ONE_MEDIA, async (req, _reply, [a, l, key]) => {
    await parent(req, a as string, l as string);
    return findMedia(a as string, l as string, key as string).item;
  });
  router.add('DELETE', ONE_MEDIA, async (req, _reply, [a, l, key]) => {
    await parent(req, a as string, l as string);
    const m = findMedia(a as string, l as string, key as string);
    s().media = s().media.filter((x) => x !== m);
    if (m.blob) rt.blobs.remove(m.blob);
    store.save();
    return {};
  });

  app.register(async (scope) => router.mount(scope, (_m, p) => unknownPath(p)), {
    prefix: '/google/mybusiness',
  });

  // googleUrl of uploaded media: the bytes, as Google's image host serves them.
  app.get<{ Params: { key: string } }>('/google/lh3/:key', async (req, reply) => {
    const m = s().media.find((x) => x.key === req.params.key);
    // Media of a local post are kept under their post's key (p{postId}-{i}).
    const blob =
      m?.blob ?? (/^p\d+-\d+$/.test(req.params.key) ? `google-media-${req.params.key}` : undefined);
    const bytes = blob ? rt.blobs.get(blob) : undefined;
    if (!bytes) return reply.code(404).type('text/plain').send('Not Found');
    return reply.type(mimeOf(probeMedia(bytes).format)).send(bytes);
  });
}
