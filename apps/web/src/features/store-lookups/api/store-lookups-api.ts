import { useQuery } from '@tanstack/react-query';
import {
  postalDigits,
  type AdministrativeArea,
  type BusinessCategory,
  type ChoiceRegion,
  type PostalCodeLookup,
} from '@tenpo/domain';
import { api } from '@/lib/api-client';

/**
 * The lookups behind the basic-information form (spec 2 §7; ADR 0044): a fetcher, query keys
 * and a hook per call. The screen composes them; errors arrive as ApiError (422 malformed
 * postal code, 404 unknown code, 409 Google not connected), each with its Japanese message.
 */

export const storeLookupKeys = {
  postalCode: (digits: string) => ['postal-code', digits] as const,
  prefectures: (userId: number, region: ChoiceRegion | null) =>
    ['prefectures', userId, region] as const,
  categories: (userId: number, search: string) => ['categories', userId, search] as const,
};

/** GET /postal-code/{code}: the spec's `data.data` (zip_lat, zip_lng and the address parts). */
export const postalCodeCall = async (code: string, signal?: AbortSignal) =>
  (await api<{ data: PostalCodeLookup }>(`/postal-code/${encodeURIComponent(code)}`, { signal }))
    .data.data;

/** GET /entity/prefectures: JP's 47 and VN's 34, or one region's list. */
export const prefecturesCall = async (
  userId: number,
  region?: ChoiceRegion | null,
  signal?: AbortSignal,
): Promise<AdministrativeArea[]> =>
  (
    await api<AdministrativeArea[]>('/entity/prefectures', {
      query: { user_id: userId, region_code: region ?? undefined },
      signal,
    })
  ).data;

/** GET /entity/categories: Google's categories in Japanese, narrowed by `search`. */
export const categoriesCall = async (
  userId: number,
  search?: string,
  signal?: AbortSignal,
): Promise<BusinessCategory[]> =>
  (
    await api<BusinessCategory[]>('/entity/categories', {
      query: { user_id: userId, search: search?.trim() || undefined },
      signal,
    })
  ).data;

const HOUR = 60 * 60 * 1000;

/**
 * The address of a postal code as typed. Nothing is asked until the code is a whole one
 * (7 digits, with or without the hyphen); `150-0002` and `1500002` share one cache entry.
 */
export function usePostalCode(code: string | null | undefined) {
  const digits = code ? postalDigits(code) : null;
  return useQuery({
    queryKey: storeLookupKeys.postalCode(digits ?? ''),
    queryFn: ({ signal }) => postalCodeCall(digits as string, signal),
    enabled: digits !== null,
    // Japan Post's data ships with the server: an answer does not change while the page is open.
    staleTime: Infinity,
  });
}

/**
 * The administrative-area choice list of a store (spec 2 §5). `regionCode` JP or VN: that
 * region's list; none: both; any other region has no list (free text), so nothing is asked.
 */
export function usePrefectures(userId: number | null | undefined, regionCode?: string | null) {
  const wanted = regionCode ? regionCode.trim().toUpperCase() : null;
  const region: ChoiceRegion | null = wanted === 'JP' || wanted === 'VN' ? wanted : null;
  return useQuery({
    queryKey: storeLookupKeys.prefectures(userId ?? 0, region),
    queryFn: ({ signal }) => prefecturesCall(userId as number, region, signal),
    enabled: !!userId && (wanted === null || region !== null),
    staleTime: Infinity,
  });
}

/** Google's categories for a store's listing, narrowed by `query` (debounce it in the form). */
export function useCategories(userId: number | null | undefined, query?: string) {
  const search = query?.trim() ?? '';
  return useQuery({
    queryKey: storeLookupKeys.categories(userId ?? 0, search),
    queryFn: ({ signal }) => categoriesCall(userId as number, search, signal),
    enabled: !!userId,
    staleTime: HOUR,
  });
}
