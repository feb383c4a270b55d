import {
  JA_DAY,
  PAYMENT_OPTIONS,
  PUBLISHER_STATUS,
  storeInfoLabels,
  WEEK_DAYS,
  type BusinessDetails,
  type BusinessDetailsRequest,
  type Contacts,
  type ContactsRequest,
  type CoreInformation,
  type CoreInformationRequest,
  type GoogleVersion,
  ja,
  type StoreInfoSection,
  type TimePeriod,
} from '@tenpo/domain';
import type { ChannelError, Listing, ListingPeriod, LocationPatch } from '../../channels/channel';
import { googleFieldLabels, listingFormKey } from '../../channels/google/google.fields';
import { validationError, type AppError } from '../../lib/errors';
import type { StoreProfile } from './store-info.repo';

// The store-info copy as kept, as Google's listing, and as the Location patches between them.

/** The audit log's line for a save of each form (ADR 0047). */
export const SECTION_SUMMARY: Record<StoreInfoSection, string> = {
  core: '基本情報を変更',
  details: '営業情報を変更',
  contacts: '連絡先・ウェブサイトを変更',
};
/** The copy's objects whose fields the log names one by one (`address.postalCode`). */
export const NESTED = ['address', 'map_marker', 'website_url', 'temporarily_closed_hours'];

export const GOOGLE = 'google_my_business' as const;

/** The queue of edits on their way to Google: `{ storeId }` sends the store's oldest. */
export const LOCATION_EDIT_QUEUE = 'location.edit';
/** Google's Business Information edits: 10 a minute per profile (providers.md §1.4, §1.8). */
export const EDITS_PER_MINUTE = 10;
/** The copy is read again from Google when older than this and a screen asks for it. */
export const PULL_AFTER_MS = 5 * 60_000;
/** One sender a store: the lease outlives a provider call (its time-out) with room to spare. */
export const SEND_LEASE_MS = 2 * 60_000;

/** The Google states under which Tenpo reads and edits the listing. */
export const LIVE: readonly number[] = [
  PUBLISHER_STATUS.connected,
  PUBLISHER_STATUS.sync,
  PUBLISHER_STATUS.submitted,
];

/** What a refusal keeps: the sentence the screen shows and the form fields it names. */
export type Refusal = { message: string; fields: string[] };

export const refusalOf = (err: ChannelError): Refusal => {
  const fields = googleFieldLabels(err.fields, 'listing');
  return {
    fields,
    message: fields.length > 0 ? ja.listingRefusedFields(fields.join('、')) : ja.listingRefused,
  };
};

/** A refusal at save (validateOnly): the 422 names each form field Google refused (ADR 0061). */
export const refusedAtSave = (err: ChannelError): AppError => {
  const r = refusalOf(err);
  const errors: Record<string, string[]> = {};
  for (const v of err.fields) {
    const key = listingFormKey(v);
    if (key) errors[key] = [ja.listingFieldRefused];
  }
  return validationError(errors, r.message);
};

/** The top-level Location fields Tenpo edits, the copy's section of each, and its label. */
export const VERSION_FIELDS: Record<string, { section: StoreInfoSection; label: string }> = {
  title: { section: 'core', label: storeInfoLabels.name },
  storefrontAddress: { section: 'core', label: '住所' },
  phoneNumbers: { section: 'core', label: storeInfoLabels.main_phone },
  categories: { section: 'core', label: storeInfoLabels.primary_category },
  websiteUri: { section: 'contacts', label: storeInfoLabels.website_url },
  regularHours: { section: 'details', label: storeInfoLabels.hours },
  profile: { section: 'details', label: storeInfoLabels.description },
  openInfo: { section: 'details', label: '臨時休業' },
};

// Google's day names as the Japanese hours line writes them (the domain's catalog).
const DAY_JA: Record<string, string> = JA_DAY;
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
export function listingOfCopy(c: Copy & { additionalPhones: string[] }, id: string): Listing {
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
export type StoredVersion = GoogleVersion & { listing: Listing; fields: string[] };

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

export type Copy = { core: CoreInformation; details: BusinessDetails; contacts: Contacts };

export const parseCopy = (p: StoreProfile): Copy & { additionalPhones: string[] } => {
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
