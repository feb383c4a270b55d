import { randomUUID } from 'node:crypto';
import {
  PAYMENT_OPTIONS,
  PUBLISHER_STATUS,
  storeInfoLabels,
  WEEK_DAYS,
  type BasicInformation,
  type BusinessDetails,
  type BusinessDetailsRequest,
  type Contacts,
  type ContactsRequest,
  type CoreInformation,
  type CoreInformationRequest,
  type GoogleSync,
  type GoogleVersion,
  ja,
  type StoreInfoSection,
  type TimePeriod,
} from '@tenpo/domain';
import {
  ChannelError,
  credentialHandle,
  type ChannelRegistry,
  type Listing,
  type ListingPeriod,
  type LocationPatch,
} from '../../channels/channel';
import { googleFieldLabels, listingFormKey } from '../../channels/google/google.fields';
import type { UserRow } from '../../db/types';
import type { Queue } from '../../jobs/engine';
import { iso, type Clock } from '../../lib/clock';
import { validationError, type AppError } from '../../lib/errors';
import type { AuditActor, AuditLog } from '../audit/audit.repo';
import { flatten } from '../audit/audit.entries';
import type { LocationEdit, StoreInfoRepo, StoreProfile } from './store-info.repo';

/** The audit log's line for a save of each form (ADR 0047). */
const SECTION_SUMMARY: Record<StoreInfoSection, string> = {
  core: '基本情報を変更',
  details: '営業情報を変更',
  contacts: '連絡先・ウェブサイトを変更',
};
/** The copy's objects whose fields the log names one by one (`address.postalCode`). */
const NESTED = ['address', 'map_marker', 'website_url', 'temporarily_closed_hours'];

const GOOGLE = 'google_my_business' as const;

/** The queue of edits on their way to Google: `{ storeId }` sends the store's oldest. */
export const LOCATION_EDIT_QUEUE = 'location.edit';
/** Google's Business Information edits: 10 a minute per profile (providers.md §1.4, §1.8). */
export const EDITS_PER_MINUTE = 10;
/** The copy is read again from Google when older than this and a screen asks for it. */
export const PULL_AFTER_MS = 5 * 60_000;
/** One sender a store: the lease outlives a provider call (its time-out) with room to spare. */
export const SEND_LEASE_MS = 2 * 60_000;
/** A sender that finds the lease taken tries again after this. */
const LEASE_WAIT_MS = 2000;
const RATE_WAIT_MS = 60_000;

/** The Google states under which Tenpo reads and edits the listing. */
const LIVE: readonly number[] = [
  PUBLISHER_STATUS.connected,
  PUBLISHER_STATUS.sync,
  PUBLISHER_STATUS.submitted,
];

/** What a refusal keeps: the sentence the screen shows and the form fields it names. */
type Refusal = { message: string; fields: string[] };

const refusalOf = (err: ChannelError): Refusal => {
  const fields = googleFieldLabels(err.fields, 'listing');
  return {
    fields,
    message: fields.length > 0 ? ja.listingRefusedFields(fields.join('、')) : ja.listingRefused,
  };
};

/** A refusal at save (validateOnly): the 422 names each form field Google refused (ADR 0061). */
const refusedAtSave = (err: ChannelError): AppError => {
  const r = refusalOf(err);
  const errors: Record<string, string[]> = {};
  for (const v of err.fields) {
    const key = listingFormKey(v);
    if (key) errors[key] = [ja.listingFieldRefused];
  }
  return validationError(errors, r.message);
};

/** The top-level Location fields Tenpo edits, the copy's section of each, and its label. */
const VERSION_FIELDS: Record<string, { section: StoreInfoSection; label: string }> = {
  title: { section: 'core', label: storeInfoLabels.name },
  storefrontAddress: { section: 'core', label: '住所' },
  phoneNumbers: { section: 'core', label: storeInfoLabels.main_phone },
  categories: { section: 'core', label: storeInfoLabels.primary_category },
  websiteUri: { section: 'contacts', label: storeInfoLabels.website_url },
  regularHours: { section: 'details', label: storeInfoLabels.hours },
  profile: { section: 'details', label: storeInfoLabels.description },
  openInfo: { section: 'details', label: '臨時休業' },
};

const DAY_JA: Record<string, string> = {
  MONDAY: '月',
  TUESDAY: '火',
  WEDNESDAY: '水',
  THURSDAY: '木',
  FRIDAY: '金',
  SATURDAY: '土',
  SUNDAY: '日',
};
const hhmm = (t: { hours?: number; minutes?: number }) =>
  `${String(t.hours ?? 0).padStart(2, '0')}:${String(t.minutes ?? 0).padStart(2, '0')}`;

/** One field of a listing as the screen shows it (the same for Google's value and ours). */
export function listingValueText(l: Listing, field: string): string {
  switch (field) {
    case 'title':
      return l.title;
    case 'storefrontAddress': {
      const a = l.storefrontAddress;
      const post = a.postalCode ? `〒${a.postalCode} ` : '';
      return `${post}${a.administrativeArea ?? ''}${a.locality ?? ''}${a.addressLines.join(' ')}`.trim();
    }
    case 'phoneNumbers':
      return l.phoneNumbers.primaryPhone ?? '';
    case 'categories':
      return [l.categories.primaryCategory, ...l.categories.additionalCategories]
        .filter((c): c is NonNullable<typeof c> => !!c)
        .map((c) => c.displayName || c.name)
        .join('、');
    case 'websiteUri':
      return l.websiteUri ?? '';
    case 'regularHours':
      return l.regularHours
        .map((p) => `${DAY_JA[p.openDay] ?? p.openDay} ${hhmm(p.openTime)}–${hhmm(p.closeTime)}`)
        .join('、');
    case 'profile':
      return l.description ?? '';
    case 'openInfo':
      return l.openStatus === 'CLOSED_TEMPORARILY' ? '臨時休業中' : '営業中';
    default:
      return '';
  }
}

/** The copy as a listing (what the store saved), to compare with Google's version. */
function listingOfCopy(c: Copy & { additionalPhones: string[] }, id: string): Listing {
  const a = c.core.address;
  return {
    id,
    title: c.core.name ?? '',
    storefrontAddress: {
      regionCode: a.regionCode,
      postalCode: a.postalCode,
      administrativeArea: a.administrativeArea,
      locality: a.locality,
      addressLines: [a.address1, a.address2, a.address3].filter((x): x is string => !!x),
    },
    phoneNumbers: { primaryPhone: c.core.main_phone, additionalPhones: c.additionalPhones },
    categories: {
      primaryCategory: c.core.primary_category,
      additionalCategories: c.core.additional_categories ?? [],
    },
    websiteUri: c.contacts.website_url.url,
    regularHours: c.details.hours as ListingPeriod[],
    description: c.details.description,
    openStatus: c.details.temporarily_closed_hours.dateOff ? 'CLOSED_TEMPORARILY' : 'OPEN',
    latlng: c.core.map_marker,
  };
}

/** A Location patch of `fields` with the values `l` holds (whole fields, as §1.4 asks). */
export function patchOfListing(l: Listing, fields: readonly string[]): LocationPatch {
  const p: LocationPatch = {};
  for (const f of fields)
    switch (f) {
      case 'title':
        p.title = l.title;
        break;
      case 'storefrontAddress':
        p.storefrontAddress = {
          regionCode: l.storefrontAddress.regionCode ?? 'JP',
          ...(l.storefrontAddress.postalCode ? { postalCode: l.storefrontAddress.postalCode } : {}),
          ...(l.storefrontAddress.administrativeArea
            ? { administrativeArea: l.storefrontAddress.administrativeArea }
            : {}),
          ...(l.storefrontAddress.locality ? { locality: l.storefrontAddress.locality } : {}),
          addressLines: l.storefrontAddress.addressLines,
        };
        break;
      case 'phoneNumbers':
        if (l.phoneNumbers.primaryPhone)
          p.phoneNumbers = {
            primaryPhone: l.phoneNumbers.primaryPhone,
            additionalPhones: l.phoneNumbers.additionalPhones,
          };
        break;
      case 'categories':
        if (l.categories.primaryCategory)
          p.categories = {
            primaryCategory: { name: l.categories.primaryCategory.name },
            additionalCategories: l.categories.additionalCategories.map((c) => ({ name: c.name })),
          };
        break;
      case 'websiteUri':
        if (l.websiteUri) p.websiteUri = l.websiteUri;
        break;
      case 'regularHours':
        p.regularHours = { periods: l.regularHours };
        break;
      case 'profile':
        p.profile = { description: l.description ?? '' };
        break;
      case 'openInfo':
        p.openInfo = {
          status: l.openStatus === 'CLOSED_TEMPORARILY' ? 'CLOSED_TEMPORARILY' : 'OPEN',
        };
        break;
    }
  return p;
}

/** Stored beside the copy: the screen's view, and Google's listing for "accept". */
type StoredVersion = GoogleVersion & { listing: Listing; fields: string[] };

const emptyDetails = (): BusinessDetails => ({
  description: null,
  hours: [],
  temporarily_closed_hours: { dateOff: false },
  additional_hours_text: null,
  payment_options: [],
  price_range: null,
  impressum: null,
  pickup_and_delivery_services: [],
  neighborhood: null,
});

const isDay = (d: string): d is TimePeriod['openDay'] =>
  (WEEK_DAYS as readonly string[]).includes(d);

/** Google's listing as the store's copy; what Google does not hold is kept from `prev`. */
export function copyOfListing(
  l: Listing,
  prev: { core: CoreInformation; details: BusinessDetails; contacts: Contacts } | null,
  sections: ReadonlySet<StoreInfoSection> = new Set(['core', 'details', 'contacts']),
): { core: CoreInformation; details: BusinessDetails; contacts: Contacts } {
  const [address1 = null, address2 = null, ...rest] = l.storefrontAddress.addressLines;
  const core: CoreInformation = {
    id: l.id,
    name: l.title,
    primary_category: l.categories.primaryCategory
      ? {
          name: l.categories.primaryCategory.name,
          displayName: l.categories.primaryCategory.displayName ?? '',
        }
      : null,
    additional_categories: l.categories.additionalCategories.map((c) => ({
      name: c.name,
      displayName: c.displayName ?? '',
    })),
    address: {
      postalCode: l.storefrontAddress.postalCode,
      administrativeArea: l.storefrontAddress.administrativeArea,
      locality: l.storefrontAddress.locality,
      address1,
      address2,
      address3: rest.length > 0 ? rest.join(' ') : null,
      regionCode: l.storefrontAddress.regionCode,
    },
    // The marker is Tenpo's (reference only, never sent): Google's point only seeds it.
    map_marker: prev?.core.map_marker ?? l.latlng,
    main_phone: l.phoneNumbers.primaryPhone?.trim() || null,
    corporate_code: prev?.core.corporate_code ?? null,
  };
  const details: BusinessDetails = {
    ...(prev?.details ?? emptyDetails()),
    description: l.description || null,
    hours: l.regularHours.flatMap((p) =>
      isDay(p.openDay) && isDay(p.closeDay)
        ? [
            {
              openDay: p.openDay,
              closeDay: p.closeDay,
              openTime: p.openTime,
              closeTime: p.closeTime,
            },
          ]
        : [],
    ),
    temporarily_closed_hours: { dateOff: l.openStatus === 'CLOSED_TEMPORARILY' },
  };
  const contacts: Contacts = {
    email: prev?.contacts.email ?? [],
    website_url: { url: l.websiteUri || null },
  };
  return {
    core: sections.has('core') || !prev ? core : prev.core,
    details: sections.has('details') || !prev ? details : prev.details,
    contacts: sections.has('contacts') || !prev ? contacts : prev.contacts,
  };
}

/** A core-information save as the copy keeps it and as Google's Location patch. */
export function coreEdit(
  req: CoreInformationRequest,
  prev: CoreInformation,
  additionalPhones: string[],
): { copy: CoreInformation; patch: LocationPatch; mask: string } {
  const regionCode = req.region_code ?? prev.address.regionCode ?? 'JP';
  const names = new Map<string, string>(
    req.additional_categorie_id.map((id, i) => [id, req.additional_categorie_name[i] ?? '']),
  );
  const primary = req.primary_category_id
    ? { name: req.primary_category_id, displayName: req.primary_category_name ?? '' }
    : null;
  const copy: CoreInformation = {
    id: prev.id,
    name: req.name,
    primary_category: primary ?? prev.primary_category,
    additional_categories: primary
      ? req.additional_categorie_id.map((id) => ({ name: id, displayName: names.get(id) ?? '' }))
      : prev.additional_categories,
    address: {
      postalCode: req.postal_code,
      administrativeArea: req.prefecture,
      locality: req.locality,
      address1: req.address1,
      address2: req.address2,
      address3: req.address3,
      regionCode,
    },
    map_marker:
      typeof req.latitude === 'number' && typeof req.longitude === 'number'
        ? { latitude: req.latitude, longitude: req.longitude }
        : prev.map_marker,
    main_phone: req.main_phone,
    corporate_code: req.corporate_code,
  };
  const patch: LocationPatch = {
    title: req.name,
    storefrontAddress: {
      regionCode,
      postalCode: req.postal_code,
      administrativeArea: req.prefecture,
      ...(req.locality ? { locality: req.locality } : {}),
      addressLines: [req.address1, req.address2, req.address3].filter((x): x is string => !!x),
    },
  };
  const fields = ['title', 'storefrontAddress'];
  // phoneNumbers is replaced whole (§1.4): the extra phones Google holds are sent back.
  // primaryPhone is Required in PhoneNumbers (ADR 0061): an empty phone clears nothing at
  // Google; clearing the one Google holds would be refused, so it is refused here, at save.
  if (req.main_phone) {
    patch.phoneNumbers = { primaryPhone: req.main_phone, additionalPhones };
    fields.push('phoneNumbers');
  } else if (prev.main_phone) {
    throw validationError({ main_phone: [ja.listingPhoneRequired] }, ja.listingPhoneRequired);
  }
  if (primary) {
    patch.categories = {
      primaryCategory: { name: primary.name },
      additionalCategories: req.additional_categorie_id.map((name) => ({ name })),
    };
    fields.push('categories');
  }
  return { copy, patch, mask: fields.join(',') };
}

export function detailsEdit(
  req: BusinessDetailsRequest,
  prev: BusinessDetails,
): { copy: BusinessDetails; patch: LocationPatch; mask: string } {
  const byValue = new Map<string, string>(PAYMENT_OPTIONS.map((o) => [o.value, o.text]));
  const copy: BusinessDetails = {
    ...prev,
    description: req.description,
    hours: req.hours,
    temporarily_closed_hours: { dateOff: req.temporarily_closed },
    payment_options: req.payment_options.map((v) => ({ value: v, text: byValue.get(v) ?? v })),
    price_range: req.price_range,
    pickup_and_delivery_services: req.pickup_and_delivery_services.map((value) => ({ value })),
  };
  const patch: LocationPatch = {
    profile: { description: req.description ?? '' },
    regularHours: { periods: req.hours },
    openInfo: { status: req.temporarily_closed ? 'CLOSED_TEMPORARILY' : 'OPEN' },
  };
  return { copy, patch, mask: 'profile.description,regularHours,openInfo.status' };
}

export function contactsEdit(req: ContactsRequest): {
  copy: Contacts;
  patch: LocationPatch;
  mask: string;
} {
  return {
    copy: { email: req.email, website_url: { url: req.website_url } },
    // A website left empty is cleared at Google (the mask names it, the body leaves it out).
    patch: req.website_url ? { websiteUri: req.website_url } : {},
    mask: 'websiteUri',
  };
}

type Copy = { core: CoreInformation; details: BusinessDetails; contacts: Contacts };

const parseCopy = (p: StoreProfile): Copy & { additionalPhones: string[] } => {
  const core = JSON.parse(p.core) as CoreInformation & { additional_phones?: string[] };
  const { additional_phones = [], ...rest } = core;
  return {
    core: rest,
    details: { ...emptyDetails(), ...(JSON.parse(p.details) as Partial<BusinessDetails>) },
    contacts: JSON.parse(p.contacts) as Contacts,
    additionalPhones: additional_phones,
  };
};

export type SendOutcome =
  | { state: 'sent'; editId: number }
  | { state: 'refused'; editId: number }
  | { state: 'idle' }
  | { state: 'stopped'; reason: string }
  | { state: 'wait'; until: Date; reason: string };

export type StoreInfoService = ReturnType<typeof createStoreInfoService>;

/**
 * The store's information (ADR 0041): Tenpo keeps a copy, each save updates it and queues a
 * Location patch for Google in the same transaction; one sender a store sends them in order,
 * within Google's 10 edits a minute per profile; a change made on Google's side is read back
 * into the sections that have no edit on its way.
 */
export function createStoreInfoService(deps: {
  repo: StoreInfoRepo;
  registry: ChannelRegistry;
  queue: Queue;
  clock: Clock;
  log: { warn: (obj: object, msg: string) => void };
  notConnected: () => AppError;
  /** Each save is recorded with the copy's fields before and after (ADR 0047). */
  audit?: AuditLog;
}) {
  const { repo, registry, queue, clock } = deps;
  const now = () => clock.now();
  const google = () => registry.require(GOOGLE, 'editLocation');

  /** The store's chosen location, or the "connect Google first" error. */
  async function locationOf(storeId: number): Promise<string> {
    const conn = await repo.googleConnection(storeId);
    if (!conn?.entity_id || !LIVE.includes(conn.status)) throw deps.notConnected();
    return conn.entity_id;
  }

  /** Reads Google's listing into the copy (the sections with no edit on its way). */
  async function pull(storeId: number, locationId: string, prev: StoreProfile | undefined) {
    const listing = await google().readListing(credentialHandle(storeId, GOOGLE));
    const sameLocation = prev?.location_id === locationId;
    const pending = sameLocation ? await repo.queuedSections(storeId) : new Set<StoreInfoSection>();
    const all: StoreInfoSection[] = ['core', 'details', 'contacts'];
    const old = prev && sameLocation ? parseCopy(prev) : null;
    const copy = copyOfListing(listing, old, new Set(all.filter((s) => !pending.has(s))));
    const at = iso(now());
    await repo.saveProfile({
      store_id: storeId,
      location_id: locationId,
      core: JSON.stringify({
        ...copy.core,
        additional_phones:
          pending.has('core') && old ? old.additionalPhones : listing.phoneNumbers.additionalPhones,
      }),
      details: JSON.stringify(copy.details),
      contacts: JSON.stringify(copy.contacts),
      pulled_at: at,
      updated_at: at,
    });
    return (await repo.profileOf(storeId)) as StoreProfile;
  }

  /** The copy, read from Google first when there is none or it is stale. */
  async function profile(storeId: number, opts: { fresh?: boolean } = {}): Promise<StoreProfile> {
    const locationId = await locationOf(storeId);
    const prev = await repo.profileOf(storeId);
    const stale =
      !prev ||
      prev.location_id !== locationId ||
      !prev.pulled_at ||
      now().getTime() - Date.parse(prev.pulled_at) > PULL_AFTER_MS;
    if (!stale && !opts.fresh) return prev;
    try {
      const pulled = await pull(storeId, locationId, prev);
      // Google's review may have ended since: what was said about its version is looked at again.
      if (pulled.google_version) {
        await checkGoogleVersion(storeId);
        return (await repo.profileOf(storeId)) as StoreProfile;
      }
      return pulled;
    } catch (err) {
      // Google unreachable: the copy Tenpo has still shows (and is said to be as of pulled_at).
      if (
        prev &&
        prev.location_id === locationId &&
        err instanceof ChannelError &&
        err.kind !== 'reauth'
      )
        return prev;
      throw err;
    }
  }

  async function syncState(storeId: number, p: StoreProfile): Promise<GoogleSync> {
    const edits = await repo.editsOf(storeId, p.location_id);
    const queued = edits.filter((e) => e.status === 'queued');
    const lastSent = edits.find((e) => e.status === 'sent');
    // A section's last refusal shows until a later edit of it was taken.
    const refused: GoogleSync['refused'] = [];
    for (const section of ['core', 'details', 'contacts'] as const) {
      const last = edits.find((e) => e.section === section && e.status !== 'queued');
      if (last?.status === 'refused' && last.error) {
        const r = JSON.parse(last.error) as Refusal;
        refused.push({ section, at: last.sent_at ?? last.created_at, ...r });
      }
    }
    const version = p.google_version ? (JSON.parse(p.google_version) as StoredVersion) : null;
    return {
      pending: queued.length,
      next_send_at: null,
      last_sent_at: lastSent?.sent_at ?? null,
      refused,
      pulled_at: p.pulled_at,
      google_version: version
        ? { checked_at: version.checked_at, changed: version.changed, pending: version.pending }
        : null,
    };
  }

  /**
   * After an edit Google took (and when the copy is read again while something was left to
   * say): reads Google's own version (getGoogleUpdated) and keeps, beside the copy, the fields
   * where Google shows something other than what the store saved, with both values, and the
   * fields it holds pending. Best effort: a failed look leaves the last one.
   */
  async function checkGoogleVersion(storeId: number): Promise<void> {
    const edit = google();
    if (!edit.providerVersion) return;
    const p = await repo.profileOf(storeId);
    if (!p) return;
    let v;
    try {
      v = await edit.providerVersion(credentialHandle(storeId, GOOGLE));
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      deps.log.warn({ store: storeId, kind: err.kind }, "Google's version of the listing unread");
      return;
    }
    const ours = listingOfCopy(parseCopy(p), p.location_id);
    const changed = v.changed
      .filter((f) => VERSION_FIELDS[f])
      .map((f) => ({
        field: f,
        label: VERSION_FIELDS[f]?.label ?? f,
        ours: listingValueText(ours, f),
        google: listingValueText(v.listing, f),
      }))
      .filter((c) => c.ours !== c.google);
    const pending = [
      ...new Set(v.pending.flatMap((f) => (VERSION_FIELDS[f] ? [VERSION_FIELDS[f].label] : []))),
    ];
    const stored: StoredVersion | null =
      changed.length || pending.length
        ? {
            checked_at: iso(now()),
            changed,
            pending,
            listing: v.listing,
            fields: changed.map((c) => c.field),
          }
        : null;
    await repo.setGoogleVersion(storeId, stored ? JSON.stringify(stored) : null);
  }

  /**
   * The user's answer to Google's version: `accept` takes Google's values of the fields it
   * changed into the copy and sends them as the store's (Google's version and the store's then
   * agree); `resend` sends the store's values of those fields again. Either way one edit a
   * section is queued, and what Google shows is looked at again after it is sent.
   */
  async function settleGoogleVersion(
    store: UserRow,
    choice: 'accept' | 'resend',
    actor: AuditActor | null = null,
  ): Promise<BasicInformation> {
    const p = await profile(store.id);
    const version = p.google_version ? (JSON.parse(p.google_version) as StoredVersion) : null;
    if (!version || version.fields.length === 0) throw validationError({}, ja.googleVersionNothing);
    const c = parseCopy(p);
    const source = choice === 'accept' ? version.listing : listingOfCopy(c, p.location_id);
    const theirs = copyOfListing(version.listing, c);
    const next = { core: { ...c.core }, details: { ...c.details }, contacts: { ...c.contacts } };
    if (choice === 'accept')
      for (const f of version.fields)
        switch (f) {
          case 'title':
            next.core.name = theirs.core.name;
            break;
          case 'storefrontAddress':
            next.core.address = theirs.core.address;
            break;
          case 'phoneNumbers':
            next.core.main_phone = theirs.core.main_phone;
            break;
          case 'categories':
            next.core.primary_category = theirs.core.primary_category;
            next.core.additional_categories = theirs.core.additional_categories;
            break;
          case 'websiteUri':
            next.contacts.website_url = theirs.contacts.website_url;
            break;
          case 'regularHours':
            next.details.hours = theirs.details.hours;
            break;
          case 'profile':
            next.details.description = theirs.details.description;
            break;
          case 'openInfo':
            next.details.temporarily_closed_hours = theirs.details.temporarily_closed_hours;
            break;
        }
    const bySection = new Map<StoreInfoSection, string[]>();
    for (const f of version.fields) {
      const section = VERSION_FIELDS[f]?.section;
      if (section) bySection.set(section, [...(bySection.get(section) ?? []), f]);
    }
    const at = iso(now());
    await repo.transaction(async (r, trx) => {
      for (const [section, fields] of bySection) {
        const patch = patchOfListing(source, fields);
        const mask = fields.filter((f) => f in patch || f === 'websiteUri').join(',');
        if (!mask) continue;
        if (choice === 'accept') {
          const json =
            section === 'core'
              ? JSON.stringify({ ...next.core, additional_phones: c.additionalPhones })
              : JSON.stringify(next[section === 'details' ? 'details' : 'contacts']);
          await r.updateSection(store.id, section, json, at);
        }
        const id = await r.addEdit({
          store_id: store.id,
          location_id: p.location_id,
          section,
          update_mask: mask,
          patch: JSON.stringify(patch),
          created_at: at,
        });
        await queue.enqueue(
          LOCATION_EDIT_QUEUE,
          { storeId: store.id },
          { key: `location-edit:${id}`, trx },
        );
      }
      await r.setGoogleVersion(store.id, null);
      if (choice === 'accept')
        for (const section of bySection.keys())
          await deps.audit?.recordUpdate(
            {
              actor,
              entity: 'store',
              entityId: store.id,
              storeId: store.id,
              agencyId: store.agency_id,
              summary: SECTION_SUMMARY[section],
            },
            flatten(c[section] as Record<string, unknown>, NESTED),
            flatten(next[section] as Record<string, unknown>, NESTED),
            trx,
          );
    });
    return information(store);
  }

  async function information(
    store: UserRow,
    opts: { fresh?: boolean } = {},
  ): Promise<BasicInformation> {
    const p = await profile(store.id, opts);
    const c = parseCopy(p);
    return {
      core_information: c.core,
      contact_website_apps: c.contacts,
      business_details: c.details,
      google_sync: await syncState(store.id, p),
    };
  }

  /** Saves a section into the copy and queues its Google edit, both or neither. */
  async function save(
    store: UserRow,
    section: StoreInfoSection,
    edit: (c: ReturnType<typeof parseCopy>) => {
      copy: unknown;
      patch: LocationPatch;
      mask: string;
    },
    actor: AuditActor | null = null,
  ): Promise<BasicInformation> {
    const p = await profile(store.id);
    const c = parseCopy(p);
    const e = edit(c);
    // Checked first (validateOnly, ADR 0061): what Google would refuse is said now, in
    // Japanese under its field, and nothing is saved or queued. If Google cannot be asked now,
    // the edit is queued as before (a refusal then shows in google_sync.refused).
    try {
      await google().editLocation(credentialHandle(store.id, GOOGLE), e.patch, e.mask, {
        validateOnly: true,
      });
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      if (err.kind === 'invalid') throw refusedAtSave(err);
      deps.log.warn({ store: store.id, kind: err.kind }, 'listing edit not checked before queuing');
    }
    const at = iso(now());
    const sectionJson =
      section === 'core'
        ? JSON.stringify({ ...(e.copy as CoreInformation), additional_phones: c.additionalPhones })
        : JSON.stringify(e.copy);
    await repo.transaction(async (r, trx) => {
      await r.updateSection(store.id, section, sectionJson, at);
      const id = await r.addEdit({
        store_id: store.id,
        location_id: p.location_id,
        section,
        update_mask: e.mask,
        patch: JSON.stringify(e.patch),
        created_at: at,
      });
      await queue.enqueue(
        LOCATION_EDIT_QUEUE,
        { storeId: store.id },
        { key: `location-edit:${id}`, trx },
      );
      await deps.audit?.recordUpdate(
        {
          actor,
          entity: 'store',
          entityId: store.id,
          storeId: store.id,
          agencyId: store.agency_id,
          summary: SECTION_SUMMARY[section],
        },
        flatten(c[section] as Record<string, unknown>, NESTED),
        flatten(e.copy as Record<string, unknown>, NESTED),
        trx,
      );
    });
    return information(store);
  }

  /**
   * Sends the store's oldest queued edit (one job per save; whichever runs sends the oldest, so
   * edits reach Google in the order they were saved). One sender a store at a time.
   */
  async function sendNext(storeId: number): Promise<SendOutcome> {
    const edit = await repo.oldestQueued(storeId);
    if (!edit) return { state: 'idle' };
    const conn = await repo.googleConnection(storeId);
    if (!conn?.entity_id || !LIVE.includes(conn.status))
      return { state: 'stopped', reason: 'not_connected' };
    if (conn.entity_id !== edit.location_id) {
      await repo.dropStale(storeId, conn.entity_id, iso(now()));
      return sendNext(storeId);
    }
    const token = randomUUID();
    const t0 = now().getTime();
    if (
      !(await repo.takeLease(
        storeId,
        token,
        iso(now()),
        new Date(t0 + SEND_LEASE_MS).toISOString(),
      ))
    )
      return { state: 'wait', until: new Date(t0 + LEASE_WAIT_MS), reason: 'another sender' };
    try {
      // Under the lease: the oldest may have been sent by the sender before us.
      const next = await repo.oldestQueued(storeId);
      if (!next) return { state: 'idle' };
      return await send(storeId, next);
    } finally {
      await repo.releaseLease(storeId, token);
    }
  }

  async function send(storeId: number, edit: LocationEdit): Promise<SendOutcome> {
    await repo.countAttempt(edit.id);
    try {
      await google().editLocation(
        credentialHandle(storeId, GOOGLE),
        JSON.parse(edit.patch) as LocationPatch,
        edit.update_mask,
      );
    } catch (err) {
      if (!(err instanceof ChannelError)) throw err;
      switch (err.kind) {
        case 'invalid': {
          const refusal = refusalOf(err);
          deps.log.warn(
            { store: storeId, edit: edit.id, detail: err.message },
            'Google refused a listing edit',
          );
          await repo.settle(edit.id, 'refused', iso(now()), JSON.stringify(refusal));
          return { state: 'refused', editId: edit.id };
        }
        case 'rate_limited':
        case 'quota':
          return {
            state: 'wait',
            until: new Date(now().getTime() + Math.max(1000, err.retryAfterMs ?? RATE_WAIT_MS)),
            reason: err.kind,
          };
        case 'reauth':
          // The grant access turned the Google row to error; the edit waits for a new grant.
          deps.log.warn({ store: storeId, edit: edit.id }, 'listing edits wait for Google again');
          return { state: 'stopped', reason: 'reauth' };
        default:
          // transient or outcome unknown: a patch replaces whole fields, so it is sent again.
          throw err;
      }
    }
    await repo.settle(edit.id, 'sent', iso(now()), null);
    await checkGoogleVersion(storeId);
    return { state: 'sent', editId: edit.id };
  }

  return {
    information,
    /**
     * The store's website as Tenpo's copy of its information has it, without asking Google (the
     * knowledge tag's page-view beacon reads it on every call); null: none, or no copy yet.
     */
    async websiteOf(storeId: number): Promise<string | null> {
      const p = await repo.profileOf(storeId);
      return p ? (parseCopy(p).contacts.website_url?.url ?? null) : null;
    },
    saveCore: (store: UserRow, req: CoreInformationRequest, actor?: AuditActor) =>
      save(store, 'core', (c) => coreEdit(req, c.core, c.additionalPhones), actor),
    saveDetails: (store: UserRow, req: BusinessDetailsRequest, actor?: AuditActor) =>
      save(store, 'details', (c) => detailsEdit(req, c.details), actor),
    saveContacts: (store: UserRow, req: ContactsRequest, actor?: AuditActor) =>
      save(store, 'contacts', () => contactsEdit(req), actor),
    sendNext,
    settleGoogleVersion,
    checkGoogleVersion,
    /** After a new grant or location: the edits still queued are sent. */
    async resume(storeId: number): Promise<void> {
      if (await repo.queuedCount(storeId))
        await queue.enqueue(
          LOCATION_EDIT_QUEUE,
          { storeId },
          { key: `location-edit:resume:${storeId}:${now().getTime()}` },
        );
    },
  };
}
