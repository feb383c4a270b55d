import { z } from 'zod';
import { idField, idParams } from '../ids';
import { PASSWORD_MIN } from '../auth/fields';
import { userSchema } from '../auth/schemas';
import { ja } from '../messages/ja';
import { keysetQuery } from '../paging/keyset';
import { DEFAULT_PER_PAGE, pageQuery } from '../paging/paging';
import { DEFAULT_AGENT_CODE, ROLE } from '../roles/roles';
import { storeRowSchema } from '../stores/schemas';
import { adminJa, adminLabels } from '../messages/admin';
import { PAYMENT_METHODS, type PaymentMethodKey } from '../payments/schemas';

/** The resources of spec 3 §7 Admin that this module serves (groups: /admin/groups, issue 12). */
export const ADMIN_RESOURCES = ['agencies', 'customers', 'stores'] as const;
export type AdminResource = (typeof ADMIN_RESOURCES)[number];

type Label = keyof typeof adminLabels;
const label = (f: Label) => adminLabels[f];

const required = (f: Label, max = 255) =>
  z
    .string({ error: ja.required(label(f)) })
    .trim()
    .min(1, { message: ja.required(label(f)), abort: true })
    .max(max, ja.maxLength(label(f), max));

const email = () =>
  z
    .string({ error: ja.required(label('email')) })
    .trim()
    .min(1, { message: ja.required(label('email')), abort: true })
    .max(255, ja.maxLength(label('email'), 255))
    .pipe(z.email({ error: ja.email }))
    .transform((v) => v.toLowerCase());

/** A new password: required on create; on update blank means "unchanged" (null). */
const password = (requiredOnCreate: boolean) => {
  const base = z
    .string({ error: ja.required(label('password')) })
    .min(PASSWORD_MIN, ja.minLength(label('password'), PASSWORD_MIN))
    .max(255, ja.maxLength(label('password'), 255));
  return requiredOnCreate
    ? z
        .string({ error: ja.required(label('password')) })
        .min(1, { message: ja.required(label('password')), abort: true })
        .pipe(base)
    : z
        .string()
        .nullish()
        .transform((v) => (v ? v : null))
        .pipe(base.nullable());
};

/** 0 (inactive) or 1 (active); a form sends text. */
const status = () =>
  z.coerce
    .number({ error: ja.invalidChoice(label('status')) })
    .pipe(z.union([z.literal(0), z.literal(1)], { error: ja.invalidChoice(label('status')) }))
    .default(1);

const phone = () =>
  z
    .string({ error: ja.digitsOnly })
    .trim()
    .max(20, ja.maxLength(label('phone'), 20))
    .regex(/^[0-9]*$/, ja.digitsOnly)
    .nullish()
    .transform((v) => (v ? v : null));

const agentCode = () =>
  z
    .string({ error: ja.digitsOnly })
    .trim()
    .max(20, ja.maxLength(label('agent_code'), 20))
    .regex(/^[0-9]*$/, ja.digitsOnly)
    .nullish()
    .transform((v) => (v ? v : DEFAULT_AGENT_CODE));

/** Names a white-label prefix may not take: they are the product's own host names. */
export const RESERVED_PREFIXES = [
  'www',
  'api',
  'app',
  'admin',
  'mail',
  'sandbox',
  'static',
  'assets',
  'localhost',
] as const;

/**
 * A white-label prefix: one DNS label (RFC 1123) — lower-case letters, digits and hyphens, 1 to
 * 63 characters, no hyphen first or last. Upper case is folded, as host names are.
 */
export const prefixField = () =>
  z
    .string({ error: ja.required(label('prefix')) })
    .trim()
    .toLowerCase()
    .min(1, { message: ja.required(label('prefix')), abort: true })
    .max(63, { message: adminJa.prefixFormat, abort: true })
    .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, { message: adminJa.prefixFormat, abort: true })
    .refine((v) => !(RESERVED_PREFIXES as readonly string[]).includes(v), {
      error: (iss) => adminJa.prefixReserved(String(iss.input)),
    });

/** The positive id of a path or a query. */
export const adminIdParams = idParams;

/**
 * GET /admin/{resource}: `page`, `per_page` (10), `search`; stores also by `agency_id` and
 * `group_id` (the stores of one group, only those of the group's own agency).
 */
export const adminListQuery = pageQuery(DEFAULT_PER_PAGE).extend({
  search: z.string().trim().max(100).optional(),
  // Keyset paging (ADR 0098): `after` / `before`, the cursors of the page next to this one.
  ...keysetQuery.shape,
});
export const adminStoreListQuery = adminListQuery.extend({
  agency_id: idField().optional(),
  group_id: idField().optional(),
});

/**
 * Creating or changing an agency (multipart text fields; `logo` and `favicon` are image files
 * checked from their bytes). On update a blank password keeps the old one.
 */
const agencyFields = {
  email: email(),
  name: required('name'),
  company_name: required('company_name'),
  phone: phone(),
  agent_code: agentCode(),
  status: status(),
  prefix: prefixField(),
  title: required('title', 100),
};
export const adminAgencyCreateRequest = z.object({ ...agencyFields, password: password(true) });
export const adminAgencyUpdateRequest = z.object({ ...agencyFields, password: password(false) });
export type AdminAgencyCreateRequest = z.input<typeof adminAgencyCreateRequest>;
export type AdminAgencyInput = z.output<typeof adminAgencyUpdateRequest>;

/** A store's role: free trial (0) or shop (1). */
const storeRole = () =>
  z.coerce
    .number({ error: ja.invalidChoice(label('role')) })
    .pipe(
      z.union([z.literal(ROLE.freeTrial), z.literal(ROLE.shop)], {
        error: ja.invalidChoice(label('role')),
      }),
    )
    .default(ROLE.shop);

const agencyId = () =>
  z
    .union([z.literal(''), idField(ja.invalidChoice(label('agency_id')))], {
      error: ja.invalidChoice(label('agency_id')),
    })
    .nullish()
    .transform((v) => (v === undefined || v === null || v === '' ? null : v));

const storeFields = {
  email: email(),
  name: required('name'),
  company_name: required('company_name'),
  store_name: required('store_name'),
  phone: phone(),
  agent_code: agentCode(),
  status: status(),
  role: storeRole(),
  /** The agency the store belongs to; null: a customer of the platform (ADR 0049). */
  agency_id: agencyId(),
};
export const adminStoreCreateRequest = z.object({ ...storeFields, password: password(true) });
export const adminStoreUpdateRequest = z.object({ ...storeFields, password: password(false) });
export type AdminStoreCreateRequest = z.input<typeof adminStoreCreateRequest>;
export type AdminStoreInput = z.output<typeof adminStoreUpdateRequest>;

/**
 * How an account pays (spec 3 §2 manager overview). Billing is not built yet: an agent code
 * other than the default means the agency bills the store (the payment menu is hidden, spec 1
 * §2); otherwise the store pays the platform by card (ADR 0049).
 */
export const paymentMethodOf = (agentCode: string | null): PaymentMethodKey =>
  !agentCode || agentCode === DEFAULT_AGENT_CODE ? 'credit_card' : 'agency_invoice';

/** A store or customer row of the admin lists (superset of the agency list's store row). */
export const adminStoreRowSchema = storeRowSchema.extend({
  store_name: z.string().nullable(),
  phone: z.string().nullable(),
  logo_url: z.string().nullable(),
  agency_id: z.number().int().nullable(),
  agency_name: z.string().nullable(),
  /** The product name the store sees: its agency's white-label title, null for Tenpo. */
  app_name: z.string().nullable(),
  payment_method: z.enum(PAYMENT_METHODS),
  created_at: z.string(),
});
export type AdminStoreRow = z.infer<typeof adminStoreRowSchema>;

/** One store for the manager: the User shape plus its agency. */
export const adminStoreSchema = userSchema.extend({
  agency_id: z.number().int().nullable(),
});
export type AdminStore = z.infer<typeof adminStoreSchema>;

/** An agency row of the manager overview. */
export const adminAgencySchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  company_name: z.string().nullable(),
  phone: z.string().nullable(),
  agent_code: z.string().nullable(),
  status: z.number().int(),
  logo_url: z.string().nullable(),
  prefix: z.string().nullable(),
  /** The app name: the white-label title shown on `<prefix>.<host>`. */
  title: z.string().nullable(),
  favicon_url: z.string().nullable(),
  store_count: z.number().int(),
  /** Stores of the agency whose Google listing is connected. */
  google_connected: z.number().int(),
  payment_method: z.enum(PAYMENT_METHODS),
  created_at: z.string(),
});
export type AdminAgency = z.infer<typeof adminAgencySchema>;

export const adminDeleteResult = z.object({
  id: z.number().int(),
  /** Stores that became customers of the platform (agency delete). */
  detached_stores: z.number().int(),
});
