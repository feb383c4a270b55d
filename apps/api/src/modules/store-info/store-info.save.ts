import {
  type BasicInformation,
  type CoreInformation,
  ja,
  type StoreInfoSection,
} from '@tenpo/domain';
import { ChannelError, credentialHandle, type LocationPatch } from '../../channels/channel';
import type { UserRow } from '../../db/types';
import { iso } from '../../lib/clock';
import { validationError } from '../../lib/errors';
import type { AuditActor } from '../audit/audit.repo';
import { flatten } from '../audit/audit.entries';
import type { StoreInfoContext } from './store-info.context';
import {
  GOOGLE,
  LOCATION_EDIT_QUEUE,
  NESTED,
  SECTION_SUMMARY,
  VERSION_FIELDS,
  copyOfListing,
  listingOfCopy,
  parseCopy,
  patchOfListing,
  refusedAtSave,
  type StoredVersion,
} from './store-info.copy';
import { information, profile } from './store-info.read';

// The store's saves: into the copy and, in the same transaction, a Location edit queued for Google.

/**
 * The user's answer to Google's version: `accept` takes Google's values of the fields it
 * changed into the copy and sends them as the store's (Google's version and the store's then
 * agree); `resend` sends the store's values of those fields again. Either way one edit a
 * section is queued, and what Google shows is looked at again after it is sent.
 */
export async function settleGoogleVersion(
  x: StoreInfoContext,
  store: UserRow,
  choice: 'accept' | 'resend',
  actor: AuditActor | null = null,
): Promise<BasicInformation> {
  const { repo, queue, now } = x;
  const p = await profile(x, store.id);
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
        await x.audit?.recordUpdate(
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
  return information(x, store);
}

/** Saves a section into the copy and queues its Google edit, both or neither. */
export async function save(
  x: StoreInfoContext,
  store: UserRow,
  section: StoreInfoSection,
  edit: (c: ReturnType<typeof parseCopy>) => {
    copy: unknown;
    patch: LocationPatch;
    mask: string;
  },
  actor: AuditActor | null = null,
): Promise<BasicInformation> {
  const { repo, queue, now, google } = x;
  const p = await profile(x, store.id);
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
    x.log.warn({ store: store.id, kind: err.kind }, 'listing edit not checked before queuing');
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
    await x.audit?.recordUpdate(
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
  return information(x, store);
}
