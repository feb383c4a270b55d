import { z } from 'zod';
import { idField } from '../ids';
import { fieldLabels, ja } from '../messages/ja';
import { pageQuery } from '../paging/paging';
import { userIdField } from '../stores/schemas';
import {
  businessDetailsSchema,
  contactsSchema,
  coreInformationSchema,
  googleSyncSchema,
} from '../store-info/schemas';
import { LOCATIONS_PER_PAGE, PUBLISHER_KEYS, publisherById } from './publishers';

/** A publisher row of /connect-account (spec 1 §3). */
export const publisherRowSchema = z.object({
  publisher_id: z.number().int(),
  publisher_key: z.enum(PUBLISHER_KEYS),
  publisher_name: z.string(),
  logo_url: z.string(),
  entity_id: z.string().nullable(),
  location_name: z.string().nullable(),
  postal_code: z.string().nullable(),
  address_lines: z.array(z.string()),
  store_code: z.string().nullable(),
  status: z.number().int(),
  log: z.array(z.string()),
});
export type PublisherRow = z.infer<typeof publisherRowSchema>;

/** A business location as the picker shows it (spec 1 §3, Google's Location fields). */
export const locationSchema = z.object({
  id: z.string(),
  title: z.string(),
  openInfo: z.object({ canReopen: z.boolean().nullable(), status: z.string().nullable() }),
  phoneNumbers: z.object({ primaryPhone: z.string().nullable() }),
  storefrontAddress: z.object({
    addressLines: z.array(z.string()),
    locality: z.string().nullable(),
    administrativeArea: z.string().nullable(),
    regionCode: z.string().nullable(),
  }),
  websiteUri: z.string().nullable(),
});
export type Location = z.infer<typeof locationSchema>;

/** A Facebook page the user manages (spec 1 §3). */
export const facebookPageSchema = z.object({
  id: z.string(),
  name: z.string(),
  is_connected_instagram: z.boolean(),
});
export type FacebookPage = z.infer<typeof facebookPageSchema>;

const publisherKeyField = z.enum(PUBLISHER_KEYS, {
  error: ja.invalidChoice(fieldLabels.publisher_key),
});

const publisherIdField = idField(ja.invalidChoice(fieldLabels.publisher_id)).refine(
  (id) => publisherById(id) !== undefined,
  ja.invalidChoice(fieldLabels.publisher_id),
);

/** A provider's id: digits, letters and the few signs their ids use. */
const providerId = (f: 'page_id' | 'location_id' | 'entity_id') =>
  z
    .string({ error: ja.required(fieldLabels[f]) })
    .trim()
    .min(1, { message: ja.required(fieldLabels[f]), abort: true })
    .max(200, ja.maxLength(fieldLabels[f], 200))
    .regex(/^[\w@./:-]+$/, ja.invalidChoice(fieldLabels[f]));

/** Ids may come as JSON numbers; they are kept as text (provider ids exceed 2^53). */
const asText = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (typeof v === 'number' ? String(v) : v), schema);

// ---- Requests (spec 1 §7) ----

export const storeQuery = z.object({ user_id: userIdField });
export type StoreQuery = z.infer<typeof storeQuery>;

export const publisherConnectQuery = z.object({
  publisher_key: publisherKeyField,
  user_id: userIdField,
});
export type PublisherConnectQuery = z.infer<typeof publisherConnectQuery>;

export const publisherConnectResponse = z.object({ urlAuth: z.string() });

export const publisherDisconnectRequest = z.object({
  publisher_id: publisherIdField,
  entity_id: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === undefined || v === null || v === '' ? null : String(v))),
  user_id: userIdField,
});
export type PublisherDisconnectRequest = z.infer<typeof publisherDisconnectRequest>;

export const googleSyncRequest = z.object({ user_id: userIdField });

export const facebookConnectPageRequest = z.object({
  user_id: userIdField,
  page_id: asText(providerId('page_id')),
});
export type FacebookConnectPageRequest = z.infer<typeof facebookConnectPageRequest>;

export const locationsQuery = pageQuery(LOCATIONS_PER_PAGE).extend({ user_id: userIdField });
export type LocationsQuery = z.infer<typeof locationsQuery>;

export const chooseLocationRequest = z.object({
  user_id: userIdField,
  location_id: asText(providerId('location_id')),
});
export type ChooseLocationRequest = z.infer<typeof chooseLocationRequest>;

/** Query of an OAuth return (the provider's redirect): `code`+`state`, or `error`+`state`. */
export const oauthReturnQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});

/** GET /entity/basic-information (spec 2 §7): one store (the first selected). */
export const basicInformationQuery = z.object({ user_id: userIdField });

/**
 * The store's basic information (spec 2 §3, §7): Tenpo's copy of the chosen Google location's
 * listing, the three forms' sections, and (beyond the spec) where its edits stand at Google.
 */
export const basicInformationSchema = z.object({
  core_information: coreInformationSchema,
  contact_website_apps: contactsSchema,
  business_details: businessDetailsSchema.nullable(),
  google_sync: googleSyncSchema,
});
export type BasicInformation = z.infer<typeof basicInformationSchema>;
