import type {
  BasicInformation,
  BusinessDetailsRequest,
  ContactsRequest,
  CoreInformationRequest,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import type { AuditActor } from '../audit/audit.repo';
import { createStoreInfoContext, type StoreInfoDeps } from './store-info.context';
import {
  contactsEdit,
  coreEdit,
  detailsEdit,
  LOCATION_EDIT_QUEUE,
  parseCopy,
  type SendOutcome,
} from './store-info.copy';
import { checkGoogleVersion, information } from './store-info.read';
import { save, settleGoogleVersion } from './store-info.save';
import { sendNext } from './store-info.send';

export {
  contactsEdit,
  copyOfListing,
  coreEdit,
  detailsEdit,
  EDITS_PER_MINUTE,
  listingValueText,
  LOCATION_EDIT_QUEUE,
  patchOfListing,
  PULL_AFTER_MS,
  SEND_LEASE_MS,
  type SendOutcome,
} from './store-info.copy';
export type { StoreInfoDeps } from './store-info.context';

export type StoreInfoService = ReturnType<typeof createStoreInfoService>;

/**
 * The store's information (ADR 0041): Tenpo keeps a copy, each save updates it and queues a
 * Location patch for Google in the same transaction; one sender a store sends them in order,
 * within Google's 10 edits a minute per profile; a change made on Google's side is read back
 * into the sections that have no edit on its way. Put together from its parts: the copy and
 * its conversions (store-info.copy), reading (store-info.read), saving (store-info.save) and
 * sending (store-info.send).
 */
export function createStoreInfoService(deps: StoreInfoDeps) {
  const x = createStoreInfoContext(deps);
  const { repo, queue, now } = x;
  return {
    information: (store: UserRow, opts: { fresh?: boolean } = {}): Promise<BasicInformation> =>
      information(x, store, opts),
    /**
     * The store's website as Tenpo's copy of its information has it, without asking Google (the
     * knowledge tag's page-view beacon reads it on every call); null: none, or no copy yet.
     */
    async websiteOf(storeId: number): Promise<string | null> {
      const p = await repo.profileOf(storeId);
      return p ? (parseCopy(p).contacts.website_url?.url ?? null) : null;
    },
    saveCore: (store: UserRow, req: CoreInformationRequest, actor?: AuditActor) =>
      save(x, store, 'core', (c) => coreEdit(req, c.core, c.additionalPhones), actor),
    saveDetails: (store: UserRow, req: BusinessDetailsRequest, actor?: AuditActor) =>
      save(x, store, 'details', (c) => detailsEdit(req, c.details), actor),
    saveContacts: (store: UserRow, req: ContactsRequest, actor?: AuditActor) =>
      save(x, store, 'contacts', () => contactsEdit(req), actor),
    sendNext: (storeId: number): Promise<SendOutcome> => sendNext(x, storeId),
    settleGoogleVersion: (
      store: UserRow,
      choice: 'accept' | 'resend',
      actor: AuditActor | null = null,
    ): Promise<BasicInformation> => settleGoogleVersion(x, store, choice, actor),
    checkGoogleVersion: (storeId: number): Promise<void> => checkGoogleVersion(x, storeId),
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
