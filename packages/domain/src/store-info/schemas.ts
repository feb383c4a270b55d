import { z } from 'zod';
import { ja } from '../messages/ja';
import {
  PAYMENT_OPTIONS,
  storeInfoJa,
  storeInfoLabels,
  type StoreInfoField,
} from '../messages/store-info';
import { ADDITIONAL_CATEGORIES_MAX, EMAILS_MAX } from './limits';
import { userIdField } from '../stores/schemas';
import { timePeriodSchema } from './hours';

/**
 * The three forms of /basic-information (spec 2 §2, §3, §5, §7): their requests as the spec
 * names them (`additional_categorie_id` included), and what the store's information answers.
 */

/** The entity name Google gives a listing with no name: treated as empty (spec 2 §5). */
export const PLACEHOLDER_NAME = 'Entity';

/** Google's limits (providers.md §1.4): title ≤ 100, description ≤ 750, 9 extra categories. */
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 750;
export const ADDRESS_LINE_MAX = 80;

export const PRICE_RANGES = ['Unspecified', '$', '$$', '$$$', '$$$$'] as const;
export const PICKUP_DELIVERY = [
  'In-Store Pickup',
  'Curbside Pickup',
  'Pickup Not Offered',
  'Delivery',
  'Same Day Delivery',
  'No-Contact Delivery',
  'Delivery Not Offered',
] as const;

const PAYMENT_VALUES = PAYMENT_OPTIONS.map((o) => o.value) as [string, ...string[]];

const required = (f: StoreInfoField) =>
  z
    .string({ error: ja.required(storeInfoLabels[f]) })
    .trim()
    .min(1, { message: ja.required(storeInfoLabels[f]), abort: true });
const optionalText = (f: StoreInfoField, max: number) =>
  z
    .string()
    .trim()
    .max(max, ja.maxLength(storeInfoLabels[f], max))
    .nullish()
    .transform((v) => (v ? v : null));

/** http(s) with a host (spec 2 §5 custom rule "url"); domain code has no URL parser. */
export const isHttpUrl = (s: string): boolean =>
  /^https?:\/\/(?:[^\s/?#@]+@)?[^\s/?#:@]+(?::\d{1,5})?(?:[/?#]\S*)?$/i.test(s);

/** A main phone as E.164 (`+81312345678`): the client normalises it (libphonenumber-js). */
export const E164 = /^\+[1-9]\d{7,14}$/;

const categoryId = z
  .string()
  .trim()
  .regex(/^categories\/gcid:[\w-]+$/, ja.invalidChoice(storeInfoLabels.primary_category));

/** PUT /entity/basic-information (spec 2 §7). */
export const coreInformationRequest = z
  .object({
    user_id: userIdField,
    name: required('name')
      .max(NAME_MAX, ja.maxLength(storeInfoLabels.name, NAME_MAX))
      .refine((v) => v !== PLACEHOLDER_NAME, ja.required(storeInfoLabels.name)),
    postal_code: required('postal_code').regex(/^\d{3}-?\d{4}$/, storeInfoJa.postalCodeFormat),
    prefecture: required('prefecture').max(40, ja.maxLength(storeInfoLabels.prefecture, 40)),
    locality: optionalText('locality', ADDRESS_LINE_MAX),
    address1: required('address1').max(
      ADDRESS_LINE_MAX,
      ja.maxLength(storeInfoLabels.address1, ADDRESS_LINE_MAX),
    ),
    address2: required('address2').max(
      ADDRESS_LINE_MAX,
      ja.maxLength(storeInfoLabels.address2, ADDRESS_LINE_MAX),
    ),
    address3: optionalText('address3', ADDRESS_LINE_MAX),
    /** CLDR region (JP, VN…); the store's own is kept when it is left out. */
    region_code: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullish()
      .transform((v) => v ?? null),
    main_phone: z
      .string()
      .trim()
      .regex(E164, storeInfoJa.phoneFormat)
      .nullish()
      .transform((v) => v ?? null),
    primary_category_id: categoryId.nullish().transform((v) => v ?? null),
    primary_category_name: z.string().trim().max(200).nullish(),
    additional_categorie_id: z
      .array(categoryId)
      .max(ADDITIONAL_CATEGORIES_MAX, storeInfoJa.tooManyCategories)
      .nullish()
      .transform((v) => v ?? []),
    additional_categorie_name: z
      .array(z.string().max(200))
      .nullish()
      .transform((v) => v ?? []),
    latitude: z.coerce.number().min(-90).max(90).nullish(),
    longitude: z.coerce.number().min(-180).max(180).nullish(),
    corporate_code: z
      .string()
      .trim()
      .regex(/^\d*$/, ja.digitsOnly)
      .max(13, ja.maxLength(storeInfoLabels.corporate_code, 13))
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .refine((r) => new Set(r.additional_categorie_id).size === r.additional_categorie_id.length, {
    path: ['additional_categorie_id'],
    message: storeInfoJa.duplicateCategory,
  })
  .refine(
    (r) => !r.primary_category_id || !r.additional_categorie_id.includes(r.primary_category_id),
    {
      path: ['additional_categorie_id'],
      message: storeInfoJa.primaryAlsoAdditional,
    },
  );
export type CoreInformationRequest = z.infer<typeof coreInformationRequest>;

/** `hours` arrives as JSON text of the day entries (spec 2 §7); a malformed one is a 422. */
const hoursField = z
  .union([z.string(), z.array(z.unknown())])
  .nullish()
  .transform((v, ctx) => {
    if (v === null || v === undefined || v === '') return [];
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: storeInfoJa.hoursFormat });
      return z.NEVER;
    }
  })
  .pipe(z.array(timePeriodSchema, { error: storeInfoJa.hoursFormat }).max(50));

/** PUT /entity/business-details (spec 2 §7, §3). */
export const businessDetailsRequest = z.object({
  user_id: userIdField,
  description: optionalText('description', DESCRIPTION_MAX),
  hours: hoursField,
  temporarily_closed: z
    .union([z.boolean(), z.enum(['0', '1', 'true', 'false'])])
    .optional()
    .transform((v) => v === true || v === '1' || v === 'true'),
  payment_options: z
    .array(z.enum(PAYMENT_VALUES, { error: ja.invalidChoice(storeInfoLabels.payment_options) }))
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
  price_range: z
    .enum(PRICE_RANGES, { error: ja.invalidChoice(storeInfoLabels.price_range) })
    .nullish()
    .transform((v) => v ?? null),
  pickup_and_delivery_services: z
    .array(
      z.enum(PICKUP_DELIVERY, {
        error: ja.invalidChoice(storeInfoLabels.pickup_and_delivery_services),
      }),
    )
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
});
export type BusinessDetailsRequest = z.infer<typeof businessDetailsRequest>;

/** `email` as "bracketed text list" (`["a@b.jp"]`), a list, or null (spec 2 §7). */
const emailList = z
  .union([z.string(), z.array(z.string())])
  .nullish()
  .transform((v, ctx) => {
    if (v === null || v === undefined || v === '') return [] as string[];
    if (Array.isArray(v)) return v;
    try {
      const parsed = JSON.parse(v) as unknown;
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // A single address sent as plain text.
    }
    if (!v.trim().startsWith('[')) return [v];
    ctx.addIssue({ code: 'custom', message: ja.email });
    return z.NEVER;
  })
  .pipe(
    z.array(z.string().trim().max(254).email(ja.email)).max(EMAILS_MAX, storeInfoJa.tooManyEmails),
  )
  .transform((v) => v.filter((e) => e !== ''));

/** PUT /entity/contact-websites-apps (spec 2 §7, §5). */
export const contactsRequest = z.object({
  user_id: userIdField,
  email: emailList,
  website_url: z
    .string()
    .trim()
    .max(2000)
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isHttpUrl(v), ja.urlOnly),
});
export type ContactsRequest = z.infer<typeof contactsRequest>;

const category = z.object({ name: z.string(), displayName: z.string() });

export const coreInformationSchema = z.object({
  id: z.string(),
  name: z.string(),
  primary_category: category.nullable(),
  additional_categories: z.array(category).nullable(),
  address: z.object({
    postalCode: z.string().nullable(),
    administrativeArea: z.string().nullable(),
    locality: z.string().nullable(),
    address1: z.string().nullable(),
    address2: z.string().nullable(),
    address3: z.string().nullable(),
    regionCode: z.string().nullable(),
  }),
  map_marker: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  /** The listing's primary phone: what Google's call-now button dials. */
  main_phone: z.string().nullable(),
  corporate_code: z.string().nullable(),
});
export type CoreInformation = z.infer<typeof coreInformationSchema>;

export const businessDetailsSchema = z.object({
  description: z.string().nullable(),
  hours: z.array(timePeriodSchema),
  temporarily_closed_hours: z.object({ dateOff: z.boolean() }),
  additional_hours_text: z.string().nullable(),
  payment_options: z.array(z.object({ text: z.string(), value: z.string() })),
  price_range: z.string().nullable(),
  impressum: z.string().nullable(),
  pickup_and_delivery_services: z.array(z.object({ value: z.string() })),
  neighborhood: z.string().nullable(),
});
export type BusinessDetails = z.infer<typeof businessDetailsSchema>;

export const contactsSchema = z.object({
  email: z.array(z.string()).nullable(),
  website_url: z.object({ url: z.string().nullable() }),
});
export type Contacts = z.infer<typeof contactsSchema>;

/** Sections of the store's information, each saved by its own form and its own Google edit. */
export const STORE_INFO_SECTIONS = ['core', 'details', 'contacts'] as const;
export type StoreInfoSection = (typeof STORE_INFO_SECTIONS)[number];

/**
 * Where the store's edits stand at Google (beyond the spec: the screen says when Google has
 * a save): edits waiting their turn, when Google last took one, and the last refusal per form.
 */
export const googleSyncSchema = z.object({
  pending: z.number().int(),
  /** When the oldest edit still waiting will be sent, if it is waiting for the rate limit. */
  next_send_at: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  refused: z.array(
    z.object({
      section: z.enum(STORE_INFO_SECTIONS),
      at: z.string(),
      message: z.string(),
      fields: z.array(z.string()),
    }),
  ),
  pulled_at: z.string().nullable(),
  /**
   * What Google shows instead of what the store saved (ADR 0061, getGoogleUpdated): each field
   * Google changed with both values, and the fields it holds for review. Absent: nothing.
   */
  google_version: z
    .object({
      checked_at: z.string(),
      changed: z.array(
        z.object({ field: z.string(), label: z.string(), ours: z.string(), google: z.string() }),
      ),
      pending: z.array(z.string()),
    })
    .nullable()
    .optional(),
});
export type GoogleSync = z.infer<typeof googleSyncSchema>;
export type GoogleVersion = NonNullable<GoogleSync['google_version']>;

/** Accepts Google's values of the fields it changed, or sends the store's again (ADR 0061). */
export const googleVersionRequest = z.object({
  user_id: userIdField,
  choice: z.enum(['accept', 'resend']),
});

/** What a save answers: the section as stored, and where it stands at Google. */
export const storeInfoSavedSchema = z.object({ google_sync: googleSyncSchema });
