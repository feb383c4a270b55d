import {
  ja,
  type BasicInformation,
  pageOf,
  PUBLISHER_STATUS,
  type Location,
  type Page,
  type PublisherRow,
} from '@tenpo/domain';
import type { LocationDetail } from '../../channels/channel';
import type { UserRow } from '../../db/types';
import { validationError } from '../../lib/errors';
import type { AuditActor, AuditLog } from '../audit/audit.repo';
import type { PublisherService } from '../publisher/publisher.service';
import type { StoreInfoService } from '../store-info/store-info.service';

export type EntityService = ReturnType<typeof createEntityService>;

const KEY = 'google_my_business' as const;

const locationFields = (l: LocationDetail) => ({
  entity_id: l.id,
  location_name: l.title,
  postal_code: l.postalCode,
  address_lines: JSON.stringify(l.storefrontAddress.addressLines),
  store_code: l.storeCode,
});

const picker = ({ postalCode: _p, storeCode: _s, ...l }: LocationDetail): Location => l;

/** Business locations of the store's Google account: the picker, the choice, the sync. */
export function createEntityService(deps: {
  publishers: PublisherService;
  /** The store's information (Tenpo's copy of the listing, ADR 0041). */
  storeInfo: StoreInfoService;
  /** A location was chosen: the metrics backfill starts (ADR 0035). */
  onGoogleConnected?: (storeId: number) => Promise<void>;
  /** The location choice is recorded (ADR 0047). */
  audit?: AuditLog;
}) {
  const { publishers } = deps;
  const google = () => publishers.registry.require(KEY, 'locations');
  const handle = (store: UserRow) => publishers.handleOf(store, KEY);
  return {
    /** Every location of every account the grant reaches, paged here (spec: 5 a page). */
    async locations(store: UserRow, page: number, perPage: number): Promise<Page<Location>> {
      const all = await google().listLocations(handle(store));
      const slice = all.slice((page - 1) * perPage, page * perPage).map(picker);
      return pageOf(slice, all.length, page, perPage);
    },

    /** The chosen location becomes the store's listing; Google is then connected. */
    async choose(
      store: UserRow,
      locationId: string,
      actor: AuditActor | null = null,
    ): Promise<PublisherRow> {
      const found = (await google().listLocations(handle(store))).find((l) => l.id === locationId);
      if (!found) throw validationError({ location_id: [ja.locationNotFound] });
      const was = await publishers.row(store, KEY);
      await publishers.saveConnection(store, KEY, {
        status: PUBLISHER_STATUS.connected,
        ...locationFields(found),
        log: '[]',
      });
      await deps.audit?.record({
        actor,
        entity: 'connection',
        entityId: KEY,
        storeId: store.id,
        agencyId: store.agency_id,
        action: 'update',
        summary: `Google のビジネス拠点「${found.title}」を選択`,
        before: { location: was.location_name, status: was.status },
        after: { location: found.title, status: PUBLISHER_STATUS.connected },
      });
      await deps.onGoogleConnected?.(store.id);
      await deps.storeInfo.resume(store.id);
      return publishers.row(store, KEY);
    },

    /**
     * The store's basic information (spec 2 §3): Tenpo's copy of its chosen location's listing,
     * read again from Google when stale (ADR 0041), with where its edits stand at Google.
     */
    async basicInformation(store: UserRow): Promise<BasicInformation> {
      const row = await publishers.row(store, KEY);
      if (!row.entity_id) throw publishers.notConnected(KEY);
      return deps.storeInfo.information(store);
    },

    /** Reads the chosen location again from Google and stores what changed there. */
    async sync(store: UserRow): Promise<PublisherRow> {
      const row = await publishers.row(store, KEY);
      if (!row.entity_id) throw publishers.notConnected(KEY);
      const entityId = row.entity_id;
      const l = await google().getLocation(handle(store), entityId);
      await publishers.saveConnection(store, KEY, {
        status: PUBLISHER_STATUS.sync,
        ...locationFields(l),
        log: '[]',
      });
      // The store's information is read again too (the sections with no save on its way).
      await deps.storeInfo.information(store, { fresh: true });
      return publishers.row(store, KEY);
    },
  };
}
