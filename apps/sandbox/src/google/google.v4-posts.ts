// Local posts on the Business Profile v4 API: create (validated, media fetched), list, read,
// patch by update mask, delete; PROCESSING until the emulated review is done.
import {
  bodyObject,
  field,
  isHttpUrl,
  numericId,
  type Dict,
  type PathRouter,
} from '../shared/http';
import type { FetchedMedia } from '../shared/media';
import type { Runtime } from '../shared/runtime';
import { notFound, v4ValidationError } from './google.errors';
import { decodePage, encodePage, intParam } from './google.business';
import type { GPost } from './google.state';
import {
  loadBytes,
  mediaViolations,
  REJECT_MARKER,
  stamp,
  v4Parent,
  type Loaded,
  type V4Ctx,
  type Violation,
} from './google.v4-common';

const ACTION_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'GET_OFFER', 'CALL'];
const TOPICS = ['STANDARD', 'EVENT', 'OFFER', 'ALERT'];

/** PROCESSING until Google's review is done; the emulator finishes it on the first read after the delay. */
const settle = (rt: Runtime, p: GPost): boolean => {
  if (p.post.state === 'PROCESSING' && rt.now() >= p.liveAt) {
    p.post.state = p.reject ? 'REJECTED' : 'LIVE';
    return true;
  }
  return false;
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

/** An EVENT or OFFER post's event: a title, and a schedule whose end is not before its start. */
function eventViolations(body: Dict): Violation[] {
  const v: Violation[] = [];
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
  return v;
}

/** An OFFER post's offer: an object, with a valid redeem URL and string coupon and terms. */
function offerViolations(body: Dict): Violation[] {
  const v: Violation[] = [];
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
  return v;
}

/** The call to action of a post other than an OFFER: a known type, a URL unless it is CALL. */
function callToActionViolations(cta: Dict): Violation[] {
  const v: Violation[] = [];
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
  return v;
}

const validatePost = async (
  rt: Runtime,
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
  if (has('event') && (topic === 'EVENT' || topic === 'OFFER')) v.push(...eventViolations(body));
  if (has('offer') && topic === 'OFFER' && body.offer !== undefined)
    v.push(...offerViolations(body));
  if (body.offer !== undefined && topic !== 'OFFER')
    v.push({ code: 3, field: 'offer', message: 'offer is only allowed for OFFER posts.' });
  if (topic === 'ALERT' && body.alertType !== 'COVID_19')
    v.push({
      code: 3,
      field: 'alert_type',
      message: 'alert_type must be COVID_19 for ALERT posts.',
    });
  const cta = body.callToAction as Dict | undefined;
  if (has('callToAction') && cta && topic !== 'OFFER') v.push(...callToActionViolations(cta));
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
      const got = await loadBytes(rt, m.sourceUrl as string);
      loaded[i] = got;
      v.push(...mediaViolations(got.info, String(m.mediaFormat ?? ''), `media[${i}]`));
    }
  }
  return v;
};

const POSTS = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/localPosts$/;
const POST = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/localPosts\/([^/]+)$/;
const postJson = (p: GPost) => p.post;

export function registerV4Posts(router: PathRouter, ctx: V4Ctx): void {
  const { rt, store } = ctx;
  const s = () => store.data;

  router.add('POST', POSTS, async (req, _reply, [a, l]) => {
    const loc = await v4Parent(ctx, req, a as string, l as string);
    const body = bodyObject(req);
    const loaded: Loaded[] = [];
    const v = await validatePost(rt, body, undefined, loaded);
    if (v.length) throw v4ValidationError(v);
    const id = numericId(19);
    const t = stamp(rt);
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
    await v4Parent(ctx, req, a as string, l as string);
    const pageSize = intParam(req, ['pageSize'], 'page_size', 1, 100, 20);
    const offset = decodePage(field(req, 'pageToken'));
    const all = s()
      .posts.filter((p) => p.accountId === a && p.locationId === l && !p.deleted)
      .reverse();
    const page = all.slice(offset, offset + pageSize);
    if (page.map((p) => settle(rt, p)).some(Boolean)) store.save();
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
    await v4Parent(ctx, req, a as string, l as string);
    const p = findPost(a as string, l as string, id as string);
    if (settle(rt, p)) store.save();
    return postJson(p);
  });
  router.add('PATCH', POST, async (req, _reply, [a, l, id]) => {
    await v4Parent(ctx, req, a as string, l as string);
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
    const v = await validatePost(rt, body, mask);
    if (v.length) throw v4ValidationError(v);
    const patch = bodyObject(req);
    for (const m of mask) {
      const k = m.split('.')[0] as string;
      if (patch[k] === undefined) delete p.post[k];
      else p.post[k] = patch[k];
    }
    p.post.updateTime = stamp(rt);
    p.post.state = 'PROCESSING';
    p.liveAt = rt.now() + rt.settings().google.postLiveAfterMs;
    p.reject = typeof p.post.summary === 'string' && p.post.summary.includes(REJECT_MARKER);
    store.save();
    return p.post;
  });
  router.add('DELETE', POST, async (req, _reply, [a, l, id]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const p = findPost(a as string, l as string, id as string);
    p.deleted = true;
    store.save();
    return {};
  });
}
