import {
  administrativeAreas,
  categoryMatches,
  lookupMessages,
  postalShown,
  type AdministrativeArea,
  type BusinessCategory,
  type ChoiceRegion,
  type PostalCodeLookup,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import type { PublisherService } from '../publisher/publisher.service';
import { lookupPostalCode } from './postal-codes';

export type StoreLookupsService = ReturnType<typeof createStoreLookupsService>;

const KEY = 'google_my_business' as const;
/** Google's catalogue for Japanese stores, in Japanese (spec 2: the form is Japanese). */
const CATALOGUE = { regionCode: 'JP', languageCode: 'ja' } as const;
/** Categories change rarely (a few times a year): the catalogue is read again after a day. */
export const CATEGORIES_TTL_MS = 24 * 60 * 60 * 1000;

/** The lookups behind the basic-information form (spec 2 §7): postal code, areas, categories. */
export function createStoreLookupsService(deps: { publishers: PublisherService; clock: Clock }) {
  const { publishers, clock } = deps;
  // One catalogue for every store (it is Google's, not the store's); one read at a time.
  let catalogue: { at: number; list: BusinessCategory[] } | null = null;
  let reading: Promise<BusinessCategory[]> | null = null;

  const readCatalogue = (store: UserRow): Promise<BusinessCategory[]> => {
    const now = clock.now().getTime();
    if (catalogue && now - catalogue.at < CATEGORIES_TTL_MS) return Promise.resolve(catalogue.list);
    reading ??= publishers.registry
      .require(KEY, 'categories')
      .listCategories(publishers.handleOf(store, KEY), CATALOGUE)
      .then((list) => {
        catalogue = { at: clock.now().getTime(), list };
        return list;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  return {
    /** The address and coordinates of a postal code (7 digits); 404 when Japan Post has none. */
    postalCode(digits: string): { data: PostalCodeLookup } {
      const found = lookupPostalCode(digits);
      if (!found)
        throw new AppError(404, 'not_found', lookupMessages.postalCodeUnknown(postalShown(digits)));
      return { data: found };
    },

    prefectures: (region?: ChoiceRegion): AdministrativeArea[] => administrativeAreas(region),

    /**
     * Google's categories in Japanese, those whose name holds `search`. The store must have its
     * Google listing connected (409 otherwise, as the basic information itself): the categories
     * are for that listing, and its grant is what reads them.
     */
    async categories(store: UserRow, search?: string): Promise<BusinessCategory[]> {
      const row = await publishers.row(store, KEY);
      if (!row.entity_id) throw publishers.notConnected(KEY);
      return (await readCatalogue(store)).filter((c) => categoryMatches(c.displayName, search));
    },
  };
}
