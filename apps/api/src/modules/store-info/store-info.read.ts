import type { BasicInformation, GoogleSync, StoreInfoSection } from '@tenpo/domain';
import { ChannelError, credentialHandle } from '../../channels/channel';
import type { UserRow } from '../../db/types';
import { iso } from '../../lib/clock';
import type { StoreProfile } from './store-info.repo';
import type { StoreInfoContext } from './store-info.context';
import {
  GOOGLE,
  LIVE,
  PULL_AFTER_MS,
  VERSION_FIELDS,
  copyOfListing,
  listingOfCopy,
  listingValueText,
  parseCopy,
  type Refusal,
  type StoredVersion,
} from './store-info.copy';

// The store's copy read (from Google when stale) and shown, and Google's own version looked at.

/** The store's chosen location, or the "connect Google first" error. */
async function locationOf(x: StoreInfoContext, storeId: number): Promise<string> {
  const { repo } = x;
  const conn = await repo.googleConnection(storeId);
  if (!conn?.entity_id || !LIVE.includes(conn.status)) throw x.notConnected();
  return conn.entity_id;
}

/** Reads Google's listing into the copy (the sections with no edit on its way). */
async function pull(
  x: StoreInfoContext,
  storeId: number,
  locationId: string,
  prev: StoreProfile | undefined,
) {
  const { repo, now, google } = x;
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
export async function profile(
  x: StoreInfoContext,
  storeId: number,
  opts: { fresh?: boolean } = {},
): Promise<StoreProfile> {
  const { repo, now } = x;
  const locationId = await locationOf(x, storeId);
  const prev = await repo.profileOf(storeId);
  const stale =
    !prev ||
    prev.location_id !== locationId ||
    !prev.pulled_at ||
    now().getTime() - Date.parse(prev.pulled_at) > PULL_AFTER_MS;
  if (!stale && !opts.fresh) return prev;
  try {
    const pulled = await pull(x, storeId, locationId, prev);
    // Google's review may have ended since: what was said about its version is looked at again.
    if (pulled.google_version) {
      await checkGoogleVersion(x, storeId);
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

async function syncState(
  x: StoreInfoContext,
  storeId: number,
  p: StoreProfile,
): Promise<GoogleSync> {
  const { repo } = x;
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
export async function checkGoogleVersion(x: StoreInfoContext, storeId: number): Promise<void> {
  const { repo, now, google } = x;
  const edit = google();
  if (!edit.providerVersion) return;
  const p = await repo.profileOf(storeId);
  if (!p) return;
  let v;
  try {
    v = await edit.providerVersion(credentialHandle(storeId, GOOGLE));
  } catch (err) {
    if (!(err instanceof ChannelError)) throw err;
    x.log.warn({ store: storeId, kind: err.kind }, "Google's version of the listing unread");
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

export async function information(
  x: StoreInfoContext,
  store: UserRow,
  opts: { fresh?: boolean } = {},
): Promise<BasicInformation> {
  const p = await profile(x, store.id, opts);
  const c = parseCopy(p);
  return {
    core_information: c.core,
    contact_website_apps: c.contacts,
    business_details: c.details,
    google_sync: await syncState(x, store.id, p),
  };
}
