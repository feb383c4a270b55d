import type { BasicInformation } from '../publishers/schemas';
import { WEEK_DAYS, type WeekDay } from '../store-info/hours';
import { type ClockTime, type HoursPeriod, type StoreFacts } from './json-ld';

const isDay = (v: unknown): v is WeekDay =>
  typeof v === 'string' && (WEEK_DAYS as readonly string[]).includes(v);

const timeOf = (v: unknown): ClockTime | null => {
  if (v === null || typeof v !== 'object') return null;
  const t = v as { hours?: unknown; minutes?: unknown };
  const hours = typeof t.hours === 'number' ? t.hours : 0;
  const minutes = typeof t.minutes === 'number' ? t.minutes : 0;
  if (!Number.isInteger(hours) || !Number.isInteger(minutes)) return null;
  if (hours < 0 || hours > 24 || minutes < 0 || minutes > 59) return null;
  if (hours === 24 && minutes !== 0) return null;
  return { hours, minutes };
};

/**
 * Spec 2 §3's hours, read defensively: a list of {openDay, closeDay, openTime {hours, minutes}
 * or empty, closeTime {hours, minutes} or {hours: 24}}. An entry that is not one of those is
 * skipped rather than guessed at; a missing closeDay is the openDay.
 */
export function hoursPeriodsOf(hours: unknown): HoursPeriod[] {
  if (!Array.isArray(hours)) return [];
  const out: HoursPeriod[] = [];
  for (const h of hours) {
    if (h === null || typeof h !== 'object') continue;
    const e = h as Record<string, unknown>;
    if (!isDay(e.openDay)) continue;
    const closeDay = isDay(e.closeDay) ? e.closeDay : e.openDay;
    const empty =
      e.openTime === undefined ||
      e.openTime === null ||
      (typeof e.openTime === 'object' && Object.keys(e.openTime).length === 0);
    const openTime = empty ? null : timeOf(e.openTime);
    const closeTime = timeOf(e.closeTime);
    if ((!empty && !openTime) || !closeTime) continue;
    out.push({ openDay: e.openDay, closeDay, openTime, closeTime });
  }
  return out;
}

/** What the tag needs from elsewhere than the basic information (other helpers fill these). */
export type ExtraFacts = Pick<StoreFacts, 'sameAs' | 'photos' | 'offers'>;

/** The store's basic information (spec 2 §3) as the tag's facts. */
export function storeFactsOf(b: BasicInformation, extra: ExtraFacts): StoreFacts {
  const c = b.core_information;
  const a = c.address;
  return {
    name: c.name,
    address: {
      postalCode: a.postalCode,
      region: a.administrativeArea,
      locality: a.locality,
      lines: [a.address1, a.address2, a.address3].filter((l): l is string => Boolean(l)),
      country: a.regionCode,
    },
    geo: c.map_marker,
    telephone: c.main_phone,
    hours: hoursPeriodsOf(b.business_details?.hours),
    url: b.contact_website_apps.website_url.url,
    photos: extra.photos,
    sameAs: extra.sameAs,
    offers: extra.offers,
  };
}

/** A connected social profile, as Tenpo's publisher rows know it. */
export type SocialProfile = {
  publisher_key: string;
  entity_id: string | null;
  location_name: string | null;
};

/**
 * The public profile URLs of the store's connected social channels: the Facebook page by id,
 * Instagram and X by their @handle. A channel whose handle is not known is left out.
 */
export function sameAsOf(profiles: readonly SocialProfile[]): string[] {
  const handle = (n: string | null) => (n && /^@[A-Za-z0-9._]{1,30}$/.test(n) ? n.slice(1) : null);
  const out: string[] = [];
  for (const p of profiles) {
    if (p.publisher_key === 'facebook' && p.entity_id && /^\d+$/.test(p.entity_id))
      out.push(`https://www.facebook.com/${p.entity_id}`);
    const h = handle(p.location_name);
    if (p.publisher_key === 'instagram' && h) out.push(`https://www.instagram.com/${h}`);
    if (p.publisher_key === 'twitter' && h) out.push(`https://x.com/${h}`);
  }
  return out;
}
