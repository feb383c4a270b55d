import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyObject, field, PathRouter, queryLists, type Dict } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { authenticate, type GoogleCaller } from './google.auth';
import {
  badRequest,
  gError,
  notFound,
  permissionDenied,
  quotaExceeded,
  unknownPath,
} from './google.errors';
import { categories, moreHoursNames } from './google.fixtures';
import type { GListingReview, GLocation, GoogleState } from './google.state';

const ACCOUNTS = 'mybusinessaccountmanagement.googleapis.com';
const INFO = 'mybusinessbusinessinformation.googleapis.com';

/** Top-level fields of a v1 Location (discovery rev 20211211). */
export const LOCATION_FIELDS = [
  'name',
  'languageCode',
  'storeCode',
  'title',
  'phoneNumbers',
  'categories',
  'storefrontAddress',
  'websiteUri',
  'regularHours',
  'specialHours',
  'serviceArea',
  'labels',
  'adWordsLocationExtensions',
  'latlng',
  'openInfo',
  'metadata',
  'profile',
  'relationshipData',
  'moreHours',
  'serviceItems',
] as const;
const READ_ONLY = ['name', 'metadata', 'openInfo.canReopen'];
const WHOLE = ['phoneNumbers', 'categories'];
const DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'];

/** Page tokens are opaque to clients; ours carry the offset. */
export const encodePage = (offset: number): string =>
  Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
export function decodePage(token: string | undefined, field = 'page_token'): number {
  if (!token) return 0;
  try {
    const o = (JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown }).o;
    if (typeof o === 'number' && o >= 0) return o;
  } catch {
    /* fall through */
  }
  throw badRequest([{ field, description: 'Invalid page token' }]);
}

export function intParam(
  req: FastifyRequest,
  names: string[],
  fieldName: string,
  min: number,
  max: number,
  dflt: number,
): number {
  const raw = names.map((n) => field(req, n)).find((v) => v !== undefined);
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n))
    throw badRequest([
      { field: fieldName, description: `Invalid value at '${fieldName}' (TYPE_INT32), "${raw}"` },
    ]);
  if (n < min || n > max)
    throw badRequest([
      { field: fieldName, description: `${fieldName} must be between ${min} and ${max}` },
    ]);
  return n;
}

const getPath = (obj: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Dict)[k] : undefined), obj);

function setPath(obj: Dict, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) {
    if (!o[k] || typeof o[k] !== 'object') o[k] = {};
    o = o[k] as Dict;
  }
  const last = keys[keys.length - 1] as string;
  if (value === undefined) delete o[last];
  else o[last] = structuredClone(value);
}

/** Parses a FieldMask; throws Google's INVALID_ARGUMENT naming the mask parameter. */
export function parseMask(raw: string | undefined, param: 'read_mask' | 'update_mask'): string[] {
  if (raw === undefined || raw.trim() === '')
    throw badRequest([{ field: param, description: 'Field is required' }]);
  const paths = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = paths.filter(
    (p) => !(LOCATION_FIELDS as readonly string[]).includes(p.split('.')[0] ?? ''),
  );
  if (bad.length)
    throw badRequest([
      { field: param, description: `Invalid field mask provided: ${bad.join(', ')}` },
    ]);
  return paths;
}

export function applyReadMask(location: Dict, paths: string[]): Dict {
  const out: Dict = {};
  for (const p of paths) {
    const v = getPath(location, p);
    if (v !== undefined) setPath(out, p, v);
  }
  return out;
}

const isTime = (t: unknown): boolean => {
  if (t === undefined) return true;
  if (!t || typeof t !== 'object') return false;
  const { hours = 0, minutes = 0 } = t as { hours?: number; minutes?: number };
  return (
    Number.isInteger(hours) &&
    Number.isInteger(minutes) &&
    hours >= 0 &&
    hours <= 24 &&
    minutes >= 0 &&
    minutes <= 59 &&
    !(hours === 24 && minutes > 0)
  );
};

/** The rules of the Location schema that an edit can break, as field violations. */
function validateEdit(
  body: Dict,
  mask: string[],
  current: Dict,
): { field: string; description: string }[] {
  const v: { field: string; description: string }[] = [];
  const has = (f: string) => mask.some((p) => p === f || p.startsWith(`${f}.`));
  for (const p of mask) {
    if (READ_ONLY.some((r) => p === r || p.startsWith(`${r}.`)))
      v.push({ field: p, description: `${p} is output only and cannot be updated` });
    if (p === 'languageCode') v.push({ field: p, description: 'languageCode is immutable' });
    const top = p.split('.')[0] ?? '';
    if (WHOLE.includes(top) && p !== top)
      v.push({
        field: p,
        description: `${top} must be updated as a whole; use update_mask=${top}`,
      });
  }
  if (has('title')) {
    const t = body.title;
    if (typeof t !== 'string' || t.trim() === '')
      v.push({ field: 'title', description: 'title is required' });
    else if (t.length > 100)
      v.push({ field: 'title', description: 'title must be at most 100 characters' });
  }
  if (has('phoneNumbers')) {
    const pn = (body.phoneNumbers ?? {}) as Dict;
    const phones = [
      pn.primaryPhone,
      ...(Array.isArray(pn.additionalPhones) ? pn.additionalPhones : []),
    ];
    if (Array.isArray(pn.additionalPhones) && pn.additionalPhones.length > 2)
      v.push({
        field: 'phone_numbers.additional_phones',
        description: 'At most 2 additional phones',
      });
    // PhoneNumbers.primaryPhone is Required; both fields are sent on update (§1.4).
    if (pn.primaryPhone === undefined || pn.primaryPhone === '')
      v.push({ field: 'phone_numbers.primary_phone', description: 'primary_phone is required' });
    phones.forEach((ph, i) => {
      if ((ph === undefined || ph === '') && i === 0) return;
      const digits = typeof ph === 'string' ? ph.replace(/\D/g, '') : '';
      if (
        typeof ph !== 'string' ||
        !/^[+\d][\d\s()\-.]*$/.test(ph) ||
        digits.length < 9 ||
        digits.length > 15
      )
        v.push({
          field: i === 0 ? 'phone_numbers.primary_phone' : 'phone_numbers.additional_phones',
          description: `Invalid phone number: ${String(ph)}`,
        });
    });
  }
  if (has('categories')) {
    const c = (body.categories ?? {}) as Dict;
    const check = (cat: unknown, f: string) => {
      const name = cat && typeof cat === 'object' ? (cat as Dict).name : undefined;
      if (typeof name !== 'string' || !categories.some((x) => `categories/gcid:${x.id}` === name))
        v.push({ field: f, description: `Invalid category name: ${String(name)}` });
    };
    if (!c.primaryCategory)
      v.push({ field: 'categories.primary_category', description: 'primary_category is required' });
    else check(c.primaryCategory, 'categories.primary_category');
    const add = Array.isArray(c.additionalCategories) ? c.additionalCategories : [];
    if (add.length > 9)
      v.push({
        field: 'categories.additional_categories',
        description: 'At most 9 additional categories',
      });
    add.forEach((a) => check(a, 'categories.additional_categories'));
  }
  if (has('websiteUri') && body.websiteUri !== undefined && body.websiteUri !== '') {
    try {
      const u = new URL(String(body.websiteUri));
      if (!/^https?:$/.test(u.protocol)) throw new Error('scheme');
    } catch {
      v.push({
        field: 'website_uri',
        description: `Invalid website URI: ${String(body.websiteUri)}`,
      });
    }
  }
  if (has('storefrontAddress') && body.storefrontAddress !== undefined) {
    const a = body.storefrontAddress as Dict;
    if (!a || typeof a.regionCode !== 'string')
      v.push({ field: 'storefront_address.region_code', description: 'region_code is required' });
    if (Array.isArray(a?.addressLines) && a.addressLines.length > 5)
      v.push({ field: 'storefront_address.address_lines', description: 'At most 5 address lines' });
  }
  if (has('regularHours') && body.regularHours !== undefined) {
    const periods = ((body.regularHours as Dict)?.periods ?? []) as Dict[];
    if (!Array.isArray(periods))
      v.push({ field: 'regular_hours.periods', description: 'periods must be a list' });
    else
      periods.forEach((p, i) => {
        if (!DAYS.includes(String(p.openDay)) || !DAYS.includes(String(p.closeDay)))
          v.push({
            field: `regular_hours.periods[${i}]`,
            description: 'open_day and close_day must be days of the week',
          });
        if (!isTime(p.openTime) || !isTime(p.closeTime))
          v.push({ field: `regular_hours.periods[${i}]`, description: 'Invalid time of day' });
      });
  }
  if (has('specialHours') && body.specialHours !== undefined) {
    const regular = has('regularHours') ? body.regularHours : current.regularHours;
    if (!regular)
      v.push({
        field: 'special_hours',
        description: 'special_hours cannot be set without regular_hours',
      });
  }
  if (has('profile')) {
    const d = getPath(body, 'profile.description');
    if (typeof d === 'string' && d.length > 750)
      v.push({
        field: 'profile.description',
        description: 'description must be at most 750 characters',
      });
  }
  if (has('openInfo')) {
    const s = getPath(body, 'openInfo.status');
    if (
      s !== undefined &&
      !['OPEN', 'CLOSED_PERMANENTLY', 'CLOSED_TEMPORARILY'].includes(String(s))
    )
      v.push({ field: 'open_info.status', description: `Invalid value: ${String(s)}` });
  }
  return v;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Google's version of a listing (what Maps and Search show) and its masks, from the review
 * switches (ADR 0061): held edits show the value from before, overridden fields Google's value.
 * `diffMask` names the fields where Google's version differs from the merchant's because Google
 * changed them; `pendingMask` the fields with edits not yet pushed (reference §1.4).
 */
export function googleVersionOf(
  location: Dict,
  review: GListingReview | undefined,
): { location: Dict; diffMask: string[]; pendingMask: string[] } {
  const view = structuredClone(location);
  const pendingMask = Object.keys(review?.pendingBefore ?? {});
  for (const f of pendingMask) {
    const before = review?.pendingBefore[f];
    if (before === null || before === undefined) delete view[f];
    else view[f] = structuredClone(before);
  }
  const diffMask: string[] = [];
  for (const [f, v] of Object.entries(review?.overrides ?? {})) {
    if (same(location[f], v)) continue;
    view[f] = structuredClone(v);
    diffMask.push(f);
  }
  return { location: view, diffMask, pendingMask };
}

/** A location as the API answers it: `metadata` says whether Google changed or holds edits. */
function withReviewMetadata(location: Dict, review: GListingReview | undefined): Dict {
  const v = googleVersionOf(location, review);
  const metadata = { ...((location.metadata as Dict | undefined) ?? {}) };
  // proto3 JSON leaves false booleans out, as Google's answers do.
  delete metadata.hasGoogleUpdated;
  delete metadata.hasPendingEdits;
  if (v.diffMask.length) metadata.hasGoogleUpdated = true;
  if (v.pendingMask.length) metadata.hasPendingEdits = true;
  return { ...location, metadata };
}

const reviewOf = (store: JsonStore<GoogleState>, locationId: string) =>
  (store.data.listingReview ?? []).find((r) => r.locationId === locationId);

const ownedLocation = (
  store: JsonStore<GoogleState>,
  caller: GoogleCaller,
  id: string,
): GLocation => {
  const l = store.data.locations.find((x) => x.id === id);
  if (!l) throw notFound();
  if (!caller.accountIds.includes(l.accountId)) throw permissionDenied();
  return l;
};

export function registerGoogleBusiness(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  registerAccountManagement(app, rt, store);
  registerBusinessInformation(app, rt, store);
  registerListingReviewControl(app, store);
}

/** Account Management API v1: the caller's accounts. */
function registerAccountManagement(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  const s = () => store.data;
  const accounts = new PathRouter();
  // role and permissionLevel are the caller's (output only, reference §1.3); every seeded
  // account, personal or location group, is owned by its one Google user.
  const accountJson = (a: GoogleState['accounts'][number]) => ({
    name: `accounts/${a.id}`,
    accountName: a.accountName,
    type: a.type,
    role: 'PRIMARY_OWNER',
    verificationState: 'UNVERIFIED',
    vettedState: 'NOT_VETTED',
    permissionLevel: 'OWNER_LEVEL',
  });
  accounts.add('GET', /^v1\/accounts$/, async (req) => {
    const caller = await authenticate(req, rt, store, ACCOUNTS);
    const pageSize = intParam(req, ['pageSize'], 'page_size', 2, 20, 20);
    const offset = decodePage(field(req, 'pageToken'));
    let list = s().accounts.filter((a) => a.ownerEmail === caller.email);
    const filter = field(req, 'filter');
    if (filter) {
      const m = /^type\s*=\s*"?([A-Z_]+)"?$/.exec(filter.trim());
      if (!m) throw badRequest([{ field: 'filter', description: `Invalid filter: ${filter}` }]);
      list = list.filter((a) => a.type === m[1]);
    }
    const parent = field(req, 'parentAccount');
    if (parent) list = [];
    const pageItems = list.slice(offset, offset + pageSize);
    return {
      // proto3 JSON leaves an empty repeated field out, as Google's answers do.
      ...(pageItems.length ? { accounts: pageItems.map(accountJson) } : {}),
      ...(offset + pageSize < list.length ? { nextPageToken: encodePage(offset + pageSize) } : {}),
    };
  });
  accounts.add('GET', /^v1\/accounts\/([^/]+)$/, async (req, _reply, [id]) => {
    const caller = await authenticate(req, rt, store, ACCOUNTS);
    const a = s().accounts.find((x) => x.id === id);
    if (!a) throw notFound();
    if (a.ownerEmail !== caller.email) throw permissionDenied();
    return accountJson(a);
  });
  app.register(async (scope) => accounts.mount(scope, (_m, p) => unknownPath(`v1/${p}`)), {
    prefix: '/google/mybusinessaccountmanagement',
  });
}

/** Business Information API v1: locations and the category catalogue. */
function registerBusinessInformation(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  const info = new PathRouter();
  registerInfoLocations(info, rt, store);
  registerInfoCategories(info, rt, store);
  app.register(async (scope) => info.mount(scope, (_m, p) => unknownPath(p)), {
    prefix: '/google/mybusinessbusinessinformation',
  });
}

/** Locations: list, get, getGoogleUpdated, patch (validated, rate-limited, held while reviewed). */
function registerInfoLocations(info: PathRouter, rt: Runtime, store: JsonStore<GoogleState>): void {
  const s = () => store.data;
  info.add('GET', /^v1\/accounts\/([^/]+)\/locations$/, async (req, _reply, [accountId]) => {
    const caller = await authenticate(req, rt, store, INFO);
    const mask = parseMask(field(req, 'readMask') ?? field(req, 'read_mask'), 'read_mask');
    const pageSize = intParam(req, ['pageSize', 'page_size'], 'page_size', 1, 100, 10);
    const offset = decodePage(field(req, 'pageToken'));
    const account = s().accounts.find((a) => a.id === accountId);
    if (!account) throw notFound();
    if (account.ownerEmail !== caller.email) throw permissionDenied();
    let list = s().locations.filter((l) => l.accountId === accountId);
    const filter = field(req, 'filter');
    if (filter) {
      const m =
        /^\s*(title|storeCode|store_code|locationKey\.placeId|metadata\.place_id)\s*=\s*"?(.*?)"?\s*$/.exec(
          filter,
        );
      if (!m) throw badRequest([{ field: 'filter', description: `Invalid filter: ${filter}` }]);
      const key = m[1] as string;
      const val = m[2] as string;
      list = list.filter((l) => {
        const loc = l.location as Dict;
        if (key === 'title') return String(loc.title ?? '').includes(val);
        if (key === 'storeCode' || key === 'store_code') return loc.storeCode === val;
        return getPath(loc, 'metadata.placeId') === val;
      });
    }
    const orderBy = field(req, 'orderBy');
    if (orderBy) {
      const m = /^(title|store_code)( desc)?$/.exec(orderBy.trim());
      if (!m)
        throw badRequest([{ field: 'order_by', description: `Invalid order_by: ${orderBy}` }]);
      const key = m[1] === 'title' ? 'title' : 'storeCode';
      list = [...list].sort((a, b) =>
        String(a.location[key] ?? '').localeCompare(String(b.location[key] ?? ''), 'ja'),
      );
      if (m[2]) list.reverse();
    }
    const pageItems = list.slice(offset, offset + pageSize);
    return {
      ...(pageItems.length
        ? {
            locations: pageItems.map((l) =>
              applyReadMask(withReviewMetadata(l.location, reviewOf(store, l.id)), mask),
            ),
          }
        : {}),
      ...(offset + pageSize < list.length ? { nextPageToken: encodePage(offset + pageSize) } : {}),
      ...(filter ? { totalSize: list.length } : {}),
    };
  });

  info.add('GET', /^v1\/locations\/([^/:]+)$/, async (req, _reply, [id]) => {
    const caller = await authenticate(req, rt, store, INFO);
    const mask = parseMask(field(req, 'readMask') ?? field(req, 'read_mask'), 'read_mask');
    const l = ownedLocation(store, caller, id as string);
    return applyReadMask(withReviewMetadata(l.location, reviewOf(store, l.id)), mask);
  });

  // getGoogleUpdated (reference §1.4): readMask required; empty masks are left out (proto3 JSON).
  info.add('GET', /^v1\/locations\/([^/:]+):getGoogleUpdated$/, async (req, _reply, [id]) => {
    const caller = await authenticate(req, rt, store, INFO);
    const mask = parseMask(field(req, 'readMask') ?? field(req, 'read_mask'), 'read_mask');
    const l = ownedLocation(store, caller, id as string);
    const review = reviewOf(store, l.id);
    const v = googleVersionOf(withReviewMetadata(l.location, review), review);
    return {
      location: applyReadMask(v.location, mask),
      ...(v.diffMask.length ? { diffMask: v.diffMask.join(',') } : {}),
      ...(v.pendingMask.length ? { pendingMask: v.pendingMask.join(',') } : {}),
    };
  });

  info.add('PATCH', /^v1\/locations\/([^/:]+)$/, async (req, _reply, [id]) => {
    const caller = await authenticate(req, rt, store, INFO);
    const loc = ownedLocation(store, caller, id as string);
    const mask = parseMask(field(req, 'updateMask') ?? field(req, 'update_mask'), 'update_mask');
    const body = bodyObject(req);
    const validateOnly = field(req, 'validateOnly') === 'true';
    // Counted apart, so a test can tell a check from an edit at the far end.
    if (validateOnly) rt.calls.record(`VALIDATE v1/locations/${loc.id}`);
    const violations = validateEdit(body, mask, loc.location);
    if (violations.length) throw badRequest(violations);
    const next = structuredClone(loc.location);
    for (const p of mask) setPath(next, p, getPath(body, p));
    // Category display names are output only: Google fills them from the catalogue.
    const cats = next.categories as Dict | undefined;
    const withName = (c: unknown) => {
      const n = (c as Dict).name;
      return {
        ...(c as Dict),
        displayName: categories.find((x) => `categories/gcid:${x.id}` === n)?.ja ?? '',
      };
    };
    if (cats?.primaryCategory) cats.primaryCategory = withName(cats.primaryCategory);
    if (Array.isArray(cats?.additionalCategories))
      cats.additionalCategories = cats.additionalCategories.map(withName);
    if (validateOnly) return withReviewMetadata(next, reviewOf(store, loc.id));
    const limit = rt.settings().google.editsPerMinutePerProfile;
    const hit = rt.hit(`google:edits:${loc.id}`, 60_000, limit);
    if (!hit.allowed)
      throw quotaExceeded(
        INFO,
        'Edits per minute per profile',
        'Edits per minute per profile',
        limit,
        Math.ceil((hit.resetAt - rt.now()) / 1000),
      );
    // While Google holds edits, each edited field shows its old value until released.
    const review = reviewOf(store, loc.id);
    if (review?.holdPending)
      for (const f of new Set(mask.map((p) => p.split('.')[0] as string)))
        if (!(f in review.pendingBefore) && !same(loc.location[f], next[f]))
          review.pendingBefore[f] = loc.location[f] === undefined ? null : loc.location[f];
    loc.location = next;
    store.save();
    return withReviewMetadata(next, review);
  });
}

/** The category catalogue: list (filtered by display name) and batchGet. */
function registerInfoCategories(
  info: PathRouter,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  info.add('GET', /^v1\/categories$/, async (req) => {
    await authenticate(req, rt, store, INFO);
    const regionCode = field(req, 'regionCode');
    const languageCode = field(req, 'languageCode');
    const view = field(req, 'view');
    const violations = [];
    if (!regionCode) violations.push({ field: 'region_code', description: 'Field is required' });
    if (!languageCode)
      violations.push({ field: 'language_code', description: 'Field is required' });
    if (!view || !['BASIC', 'FULL'].includes(view))
      violations.push({ field: 'view', description: 'view must be BASIC or FULL' });
    if (violations.length) throw badRequest(violations);
    const pageSize = intParam(req, ['pageSize'], 'page_size', 1, 100, 100);
    const offset = decodePage(field(req, 'pageToken'));
    const ja = (languageCode ?? '').toLowerCase().startsWith('ja');
    let list = categories;
    const filter = field(req, 'filter');
    if (filter) {
      const m = /^\s*display_?[nN]ame\s*=\s*"?(.*?)"?\s*$/.exec(filter);
      if (!m) throw badRequest([{ field: 'filter', description: `Invalid filter: ${filter}` }]);
      const needle = (m[1] ?? '').toLowerCase();
      list = list.filter((c) => c.ja.includes(needle) || c.en.toLowerCase().includes(needle));
    }
    const pageItems = list.slice(offset, offset + pageSize);
    return {
      categories: pageItems.map((c) => categoryJson(c, ja, view === 'FULL')),
      ...(offset + pageSize < list.length ? { nextPageToken: encodePage(offset + pageSize) } : {}),
    };
  });

  info.add('GET', /^v1\/categories:batchGet$/, async (req) => {
    await authenticate(req, rt, store, INFO);
    const names = queryLists(req).get('names') ?? [];
    const languageCode = field(req, 'languageCode');
    const view = field(req, 'view');
    if (!languageCode)
      throw badRequest([{ field: 'language_code', description: 'Field is required' }]);
    if (names.length === 0)
      throw badRequest([{ field: 'names', description: 'Field is required' }]);
    const ja = languageCode.toLowerCase().startsWith('ja');
    const found = names.map((n) => categories.find((c) => `categories/gcid:${c.id}` === n));
    if (found.some((c) => !c)) throw gError(404, 'Requested entity was not found.');
    return {
      categories: found.map((c) =>
        categoryJson(c as (typeof categories)[number], ja, view === 'FULL'),
      ),
    };
  });
}

// Google reviewing a listing (ADR 0061): `{location_id, override?: {field: value},
// hold_pending?: bool, release?: true, clear?: true}`. `override` makes Google show its own
// value of top-level Location fields; `hold_pending` keeps later edits pending; `release`
// publishes the held edits; `clear` ends the review (until a reset).
function registerListingReviewControl(app: FastifyInstance, store: JsonStore<GoogleState>): void {
  const s = () => store.data;
  app.post('/control/google/listing-review', async (req, reply) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const locationId = String(b.location_id ?? '');
    const override = b.override as Record<string, unknown> | undefined;
    const bad =
      !s().locations.some((l) => l.id === locationId) ||
      (override !== undefined &&
        (typeof override !== 'object' ||
          override === null ||
          Object.keys(override).some(
            (k) => !(LOCATION_FIELDS as readonly string[]).includes(k) || READ_ONLY.includes(k),
          )));
    if (bad)
      return reply.code(400).send({
        error: 'invalid',
        message:
          'location_id (a seeded location) is needed; override takes editable top-level Location fields',
      });
    const list = (s().listingReview ??= []);
    let r = list.find((x) => x.locationId === locationId);
    if (!r) {
      r = { locationId, overrides: {}, holdPending: false, pendingBefore: {} };
      list.push(r);
    }
    if (b.clear === true) s().listingReview = list.filter((x) => x.locationId !== locationId);
    else {
      if (override) Object.assign(r.overrides, structuredClone(override));
      if (typeof b.hold_pending === 'boolean') r.holdPending = b.hold_pending;
      if (b.release === true) r.pendingBefore = {};
    }
    store.save();
    const l = s().locations.find((x) => x.id === locationId) as GLocation;
    const v = googleVersionOf(l.location, reviewOf(store, locationId));
    return {
      data: { location_id: locationId, diff_mask: v.diffMask, pending_mask: v.pendingMask },
    };
  });
}

function categoryJson(c: (typeof categories)[number], ja: boolean, full: boolean): Dict {
  const base: Dict = { name: `categories/gcid:${c.id}`, displayName: ja ? c.ja : c.en };
  if (!full) return base;
  return {
    ...base,
    ...(c.serviceTypes
      ? {
          serviceTypes: c.serviceTypes.map((t) => ({
            serviceTypeId: t.id,
            displayName: ja ? t.ja : t.en,
          })),
        }
      : {}),
    ...(c.moreHours
      ? {
          moreHoursTypes: c.moreHours.map((h) => ({
            hoursTypeId: h,
            displayName: moreHoursNames[h]?.en ?? h,
            localizedDisplayName: ja ? (moreHoursNames[h]?.ja ?? h) : (moreHoursNames[h]?.en ?? h),
          })),
        }
      : {}),
  };
}
