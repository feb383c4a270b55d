// Media of a location on the Business Profile v4 API: upload (startUpload, then the bytes),
// create from an upload or a URL, list, read, delete.
import {
  bodyObject,
  field,
  isHttpUrl,
  randomToken,
  type Dict,
  type PathRouter,
} from '../shared/http';
import { probeMedia, type MediaInfo } from '../shared/media';
import { authenticate } from './google.auth';
import { gError, notFound, permissionDenied, v4ValidationError } from './google.errors';
import { decodePage, encodePage, intParam } from './google.business';
import type { GMedia } from './google.state';
import {
  loadBytes,
  mediaViolations,
  SERVICE,
  stamp,
  v4Parent,
  type V4Ctx,
  type Violation,
} from './google.v4-common';

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

const MEDIA = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/media$/;
const ONE_MEDIA = /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/media\/([^/:]+)$/;

export function registerV4Media(router: PathRouter, ctx: V4Ctx): void {
  const { rt, store } = ctx;
  const s = () => store.data;

  router.add(
    'POST',
    /^v4\/accounts\/([^/]+)\/locations\/([^/]+)\/media:startUpload$/,
    async (req, _reply, [a, l]) => {
      await v4Parent(ctx, req, a as string, l as string);
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
    await v4Parent(ctx, req, a as string, l as string);
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
      ({ info, bytes } = await loadBytes(rt, body.sourceUrl as string));
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
      createTime: stamp(rt),
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
    await v4Parent(ctx, req, a as string, l as string);
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
    await v4Parent(ctx, req, a as string, l as string);
    return findMedia(a as string, l as string, key as string).item;
  });
  router.add('DELETE', ONE_MEDIA, async (req, _reply, [a, l, key]) => {
    await v4Parent(ctx, req, a as string, l as string);
    const m = findMedia(a as string, l as string, key as string);
    s().media = s().media.filter((x) => x !== m);
    if (m.blob) rt.blobs.remove(m.blob);
    store.save();
    return {};
  });
}
