import { z } from 'zod';
import { lookupMessages } from '../messages/store-lookups';
import { userIdField } from '../stores/schemas';
import { CHOICE_REGIONS, postalDigits } from './regions';

// ---- GET /postal-code/{code} ----

/** `1500002` or `150-0002` (full-width digits too), kept as its 7 digits. */
export const postalCodeParams = z.object({
  code: z
    .string()
    .transform((v, ctx) => {
      const digits = postalDigits(v);
      if (digits === null) {
        ctx.addIssue({ code: 'custom', message: lookupMessages.postalCodeMalformed });
        return z.NEVER;
      }
      return digits;
    })
    .meta({ description: '7 digits, with or without the hyphen: 1500002, 150-0002' }),
});
export type PostalCodeParams = z.infer<typeof postalCodeParams>;

/**
 * One address a postal code names, from Japan Post's KEN_ALL data, with the coordinates of its
 * municipality (ADR 0044). The parts are what the core-information form fills: prefecture →
 * administrativeArea, city → locality, town → address1's start.
 */
export const postalAddressSchema = z.object({
  postal_code: z.string().meta({ description: 'As Japan Post writes it: 150-0002' }),
  prefecture_code: z.string().meta({ description: 'JIS X 0401, two digits: 13' }),
  // ja-data: examples of the answer in the API document
  prefecture: z.string().meta({ description: 'Prefecture (administrativeArea): 東京都' }),
  city_code: z.string().meta({ description: 'JIS X 0402 municipality code, five digits' }),
  // ja-data: examples of the answer in the API document
  city: z.string().meta({ description: 'Municipality (locality): 渋谷区, 札幌市中央区' }),
  town: z.string().meta({
    description:
      // ja-data: an example of the answer in the API document
      'Town (町域, the start of address1): 渋谷. Empty where Japan Post lists none for the code.',
  }),
});
export type PostalAddress = z.infer<typeof postalAddressSchema>;

/** How near the coordinates are: the municipality's point, or only the prefecture's. */
export const COORDINATE_LEVELS = ['municipality', 'prefecture'] as const;

export const postalCodeLookupSchema = postalAddressSchema.extend({
  zip_lat: z.number().meta({ description: 'Latitude (WGS 84) of the municipality' }),
  zip_lng: z.number().meta({ description: 'Longitude (WGS 84) of the municipality' }),
  coordinate_level: z.enum(COORDINATE_LEVELS).meta({
    description:
      "municipality: the city's (or, for a ward, its designated city's) point; prefecture: no point was found for the municipality, the prefecture's is given",
  }),
  /** Every address of the code: most codes name one; some name several towns or cities. */
  addresses: z.array(postalAddressSchema),
});
export type PostalCodeLookup = z.infer<typeof postalCodeLookupSchema>;

/** The spec's `data.data` (spec 2 §7: "data.data holds zip_lat, zip_lng"). */
export const postalCodeResponseData = z.object({ data: postalCodeLookupSchema });

// ---- GET /entity/prefectures ----

export const prefecturesQuery = z.object({
  user_id: userIdField,
  region_code: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(CHOICE_REGIONS, { error: lookupMessages.regionCode }))
    .optional()
    .meta({ description: 'JP or VN: only that region’s list. Without it: both, JP first.' }),
});
export type PrefecturesQuery = z.infer<typeof prefecturesQuery>;

export const administrativeAreaSchema = z.object({
  region_code: z.enum(CHOICE_REGIONS),
  code: z.string().meta({ description: 'JP: JIS X 0401 (01–47); VN: the province code' }),
  // ja-data: examples of the answer in the API document
  name: z.string().meta({ description: 'As administrativeArea takes it: 東京都, Hà Nội' }),
});

// ---- GET /entity/categories ----

export const categoriesQuery = z.object({
  user_id: userIdField,
  search: z
    .string()
    .trim()
    .max(100, lookupMessages.searchTooLong(100))
    .optional()
    .meta({ description: 'Part of a display name (full-width and half-width alike)' }),
});
export type CategoriesQuery = z.infer<typeof categoriesQuery>;

/** A Google business category (Business Information `Category`, view BASIC, in Japanese). */
export const businessCategorySchema = z.object({
  name: z.string().meta({ description: 'categories/gcid:…' }),
  displayName: z.string(),
});
export type BusinessCategory = z.infer<typeof businessCategorySchema>;

/** Whether a category's display name holds the search text (NFKC, case folded). */
export function categoryMatches(displayName: string, search: string | undefined): boolean {
  if (!search) return true;
  const fold = (s: string) => s.normalize('NFKC').toLowerCase();
  return fold(displayName).includes(fold(search));
}
