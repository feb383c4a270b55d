/**
 * The knowledge tag's structured data (issue 11 item 3, spec 2 §2, §7): a schema.org
 * `LocalBusiness` built from a store's facts, through a JSON-LD template the store may edit.
 * Pure: the API gathers the facts, renders the template and serves the result in the embed
 * script; the markup editor checks a template with the same rules before it is kept.
 */

import { CLOSED_DAY, JA_DAY, embedFieldLabels, templateMessages } from '../messages/knowledge-tag';
import { WEEK_DAYS, type WeekDay } from '../store-info/hours';
import { TEMPLATE_MAX_LENGTH } from './limits';

/** A time of day with both fields (Google leaves zero fields out; the facts do not). */
export type ClockTime = { hours: number; minutes: number };

/**
 * One opening period, as spec 2 §3's business details list them: `openTime` empty means from
 * midnight; `closeTime` {hours: 24} means until the end of the day.
 */
export type HoursPeriod = {
  openDay: WeekDay;
  closeDay: WeekDay;
  openTime: ClockTime | null;
  closeTime: ClockTime;
};

/** A product of the store, offered on its page (products as `makesOffer`). */
export type OfferFact = {
  name: string;
  description: string | null;
  /** Yen; a range when minimum and maximum differ. */
  minimumPrice: number | null;
  maximumPrice: number | null;
  url: string | null;
};

/** What the knowledge tag says about a store: a narrow input of its own, whatever the source. */
export type StoreFacts = {
  name: string;
  address: {
    postalCode: string | null;
    /** Prefecture (Google's administrativeArea). */
    region: string | null;
    locality: string | null;
    /** The address lines, in order. */
    lines: string[];
    /** CLDR region code (JP). */
    country: string | null;
  };
  geo: { latitude: number; longitude: number } | null;
  telephone: string | null;
  hours: HoursPeriod[];
  url: string | null;
  /** Photo URLs, public. */
  photos: string[];
  /** The store's profiles elsewhere (Facebook page, Instagram, X). */
  sameAs: string[];
  offers: OfferFact[];
};

const SCHEMA_DAY: Record<WeekDay, string> = {
  MONDAY: 'Monday',
  TUESDAY: 'Tuesday',
  WEDNESDAY: 'Wednesday',
  THURSDAY: 'Thursday',
  FRIDAY: 'Friday',
  SATURDAY: 'Saturday',
  SUNDAY: 'Sunday',
};

const two = (n: number) => String(n).padStart(2, '0');
const opens = (t: ClockTime | null) => (t ? `${two(t.hours)}:${two(t.minutes)}` : '00:00');
/** schema.org (and Google's guide) write "until the end of the day" as 23:59. */
const closes = (t: ClockTime) => (t.hours >= 24 ? '23:59' : `${two(t.hours)}:${two(t.minutes)}`);

export type OpeningHoursSpecification = {
  '@type': 'OpeningHoursSpecification';
  dayOfWeek: string[];
  opens: string;
  closes: string;
};

/**
 * The periods as schema.org `OpeningHoursSpecification`s, one per distinct opens–closes pair,
 * its days in week order (Monday first). A period past midnight keeps its opening day: a
 * `closes` earlier than `opens` means the next day, as schema.org reads it.
 */
export function openingHours(periods: readonly HoursPeriod[]): OpeningHoursSpecification[] {
  const byTimes = new Map<string, OpeningHoursSpecification>();
  const sorted = [...periods].sort(
    (a, b) =>
      WEEK_DAYS.indexOf(a.openDay) - WEEK_DAYS.indexOf(b.openDay) ||
      opens(a.openTime).localeCompare(opens(b.openTime)),
  );
  for (const p of sorted) {
    const key = `${opens(p.openTime)}-${closes(p.closeTime)}`;
    const spec = byTimes.get(key) ?? {
      '@type': 'OpeningHoursSpecification' as const,
      dayOfWeek: [],
      opens: opens(p.openTime),
      closes: closes(p.closeTime),
    };
    const day = SCHEMA_DAY[p.openDay];
    if (!spec.dayOfWeek.includes(day)) spec.dayOfWeek.push(day);
    byTimes.set(key, spec);
  }
  return [...byTimes.values()];
}

/** The hours as one line of Japanese text, for a page's hours field: 月 08:00–21:00 / 火 … */
export function hoursText(periods: readonly HoursPeriod[]): string {
  return WEEK_DAYS.map((d) => {
    const ps = periods
      .filter((p) => p.openDay === d)
      .sort((a, b) => opens(a.openTime).localeCompare(opens(b.openTime)));
    const times = ps.map((p) => `${opens(p.openTime)}–${closes(p.closeTime)}`).join(', ');
    return `${JA_DAY[d]} ${times || CLOSED_DAY}`;
  }).join(' / ');
}

const streetOf = (lines: readonly string[]) =>
  lines
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');

/** The address as a Japanese line: 〒150-0002 東京都渋谷区渋谷2-21-1 渋谷ヒカリエ 6F */
export function addressText(a: StoreFacts['address']): string {
  const place = `${a.region ?? ''}${a.locality ?? ''}${streetOf(a.lines)}`;
  return [a.postalCode ? `〒${a.postalCode}` : '', place].filter(Boolean).join(' ');
}

const offerOf = (o: OfferFact): Json => {
  const single = o.minimumPrice ?? o.maximumPrice;
  const price: Record<string, Json> =
    o.minimumPrice !== null && o.maximumPrice !== null && o.minimumPrice !== o.maximumPrice
      ? {
          priceSpecification: {
            '@type': 'PriceSpecification',
            minPrice: o.minimumPrice,
            maxPrice: o.maximumPrice,
            priceCurrency: 'JPY',
          },
        }
      : single !== null
        ? { price: single, priceCurrency: 'JPY' }
        : {};
  return {
    '@type': 'Offer',
    itemOffered: {
      '@type': 'Product',
      name: o.name,
      ...(o.description ? { description: o.description } : {}),
    },
    ...price,
    ...(o.url ? { url: o.url } : {}),
  };
};

export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/**
 * The values a template may name as `{{key}}`. A value that is null or an empty list leaves its
 * property out of the result.
 */
export function placeholderValues(f: StoreFacts): Record<PlaceholderKey, Json> {
  const a = f.address;
  const street = streetOf(a.lines);
  const hasAddress = Boolean(a.postalCode || a.region || a.locality || street);
  return {
    name: f.name,
    address: hasAddress
      ? {
          '@type': 'PostalAddress',
          ...(a.postalCode ? { postalCode: a.postalCode } : {}),
          ...(a.region ? { addressRegion: a.region } : {}),
          ...(a.locality ? { addressLocality: a.locality } : {}),
          ...(street ? { streetAddress: street } : {}),
          ...(a.country ? { addressCountry: a.country } : {}),
        }
      : null,
    postalCode: a.postalCode,
    region: a.region,
    locality: a.locality,
    streetAddress: street || null,
    geo: f.geo
      ? { '@type': 'GeoCoordinates', latitude: f.geo.latitude, longitude: f.geo.longitude }
      : null,
    telephone: f.telephone,
    url: f.url,
    photos: [...f.photos],
    openingHours: openingHours(f.hours),
    sameAs: [...f.sameAs],
    offers: f.offers.map(offerOf),
  };
}

export const PLACEHOLDER_KEYS = [
  'name',
  'address',
  'postalCode',
  'region',
  'locality',
  'streetAddress',
  'geo',
  'telephone',
  'url',
  'photos',
  'openingHours',
  'sameAs',
  'offers',
] as const;
export type PlaceholderKey = (typeof PLACEHOLDER_KEYS)[number];

const isPlaceholderKey = (k: string): k is PlaceholderKey =>
  (PLACEHOLDER_KEYS as readonly string[]).includes(k);

const WHOLE = /^\{\{\s*([A-Za-z]+)\s*\}\}$/;
const INNER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

const isEmpty = (v: Json | undefined) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The template with the store's facts in it. A string that is only `{{key}}` becomes the
 * value itself (an object, a list, a text); `{{key}}` inside a longer text becomes the value
 * as text. A property whose value ends up empty is left out, so the result never claims an
 * empty address or a list of nothing.
 */
export function renderTemplate(template: Json, values: Record<PlaceholderKey, Json>): Json {
  const walk = (v: Json): Json | undefined => {
    if (typeof v === 'string') {
      const whole = WHOLE.exec(v);
      if (whole) {
        const key = whole[1] ?? '';
        return isPlaceholderKey(key) ? values[key] : v;
      }
      return v.replace(INNER, (m, key: string) => {
        if (!isPlaceholderKey(key)) return m;
        const x = values[key];
        return typeof x === 'string' || typeof x === 'number' ? String(x) : '';
      });
    }
    if (Array.isArray(v)) return v.map(walk).filter((x): x is Json => !isEmpty(x));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, Json> = {};
      for (const [k, x] of Object.entries(v)) {
        const w = walk(x);
        if (!isEmpty(w)) out[k] = w as Json;
      }
      return out;
    }
    return v;
  };
  return walk(template) ?? null;
}

/** The template a store starts with, and the one reset restores. */
export const DEFAULT_SCHEMA_TEMPLATE: Record<string, string> = {
  '@context': 'https://schema.org',
  '@type': 'LocalBusiness',
  name: '{{name}}',
  address: '{{address}}',
  geo: '{{geo}}',
  telephone: '{{telephone}}',
  url: '{{url}}',
  image: '{{photos}}',
  openingHoursSpecification: '{{openingHours}}',
  sameAs: '{{sameAs}}',
  makesOffer: '{{offers}}',
};

export const DEFAULT_SCHEMA_TEMPLATE_TEXT = JSON.stringify(DEFAULT_SCHEMA_TEMPLATE, null, 2);

/** Built from the facts with the default template: what the tag serves until a store edits it. */
export const localBusinessJsonLd = (facts: StoreFacts): Json =>
  renderTemplate(DEFAULT_SCHEMA_TEMPLATE, placeholderValues(facts));

export type TemplateCheck = { ok: true; value: Json } | { ok: false; message: string };

/** Is this text a template the tag can use? The editor and the API apply the same rules. */
export function checkTemplate(text: string): TemplateCheck {
  if (text.trim() === '') return { ok: false, message: templateMessages.required };
  if (text.length > TEMPLATE_MAX_LENGTH) return { ok: false, message: templateMessages.tooLong };
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return { ok: false, message: templateMessages.invalidJson };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: templateMessages.notObject };
  const unknown = [...text.matchAll(INNER)]
    .map((m) => m[1] ?? '')
    .filter((k) => !isPlaceholderKey(k));
  if (unknown.length > 0)
    return { ok: false, message: templateMessages.unknownPlaceholder([...new Set(unknown)]) };
  return { ok: true, value };
}

/**
 * The page fields the script fills, by the value of their data attribute (ADR 0045): both
 * brand variants' attribute names are read, `data-tenpo-field` and `data-kt-field`.
 */
export const EMBED_FIELD_ATTRIBUTES = ['data-tenpo-field', 'data-kt-field'] as const;

export const EMBED_FIELDS = [
  { key: 'name', label: embedFieldLabels.name },
  { key: 'address', label: embedFieldLabels.address },
  { key: 'postal_code', label: embedFieldLabels.postal_code },
  { key: 'telephone', label: embedFieldLabels.telephone },
  { key: 'url', label: embedFieldLabels.url },
  { key: 'hours', label: embedFieldLabels.hours },
] as const;
export type EmbedFieldKey = (typeof EMBED_FIELDS)[number]['key'];

/** The text each page field receives (empty fields are left as the page has them). */
export function embedFieldValues(f: StoreFacts): Record<EmbedFieldKey, string> {
  return {
    name: f.name,
    address: addressText(f.address),
    postal_code: f.address.postalCode ?? '',
    telephone: f.telephone ?? '',
    url: f.url ?? '',
    hours: f.hours.length > 0 ? hoursText(f.hours) : '',
  };
}
