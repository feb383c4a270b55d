import { z } from 'zod';
import { ja } from '../messages/ja';
import { userIdField } from '../stores/schemas';
import { timePeriodSchema } from './hours';

/**
 * The three forms of /basic-information (spec 2 §2, §3, §5, §7): their requests as the spec
 * names them (`additional_categorie_id` included), and what the store's information answers.
 */

export const storeInfoLabels = {
  name: 'ビジネス名',
  postal_code: '郵便番号',
  prefecture: '都道府県',
  locality: '市区町村',
  address1: '番地',
  address2: '建物名・部屋番号',
  address3: '住所（その他）',
  main_phone: '電話番号',
  primary_category: 'メインカテゴリ',
  additional_categories: '追加カテゴリ',
  corporate_code: '法人番号',
  latitude: '緯度',
  longitude: '経度',
  description: 'ビジネスの説明',
  hours: '営業時間',
  email: 'メールアドレス',
  website_url: 'ウェブサイト',
  payment_options: '支払い方法',
  price_range: '価格帯',
  pickup_and_delivery_services: '受け取り・配達',
} as const;
export type StoreInfoField = keyof typeof storeInfoLabels;

/** The entity name Google gives a listing with no name: treated as empty (spec 2 §5). */
export const PLACEHOLDER_NAME = 'Entity';

/** Google's limits (providers.md §1.4): title ≤ 100, description ≤ 750, 9 extra categories. */
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 750;
export const ADDITIONAL_CATEGORIES_MAX = 9;
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
export const PICKUP_DELIVERY_LABELS: Record<(typeof PICKUP_DELIVERY)[number], string> = {
  'In-Store Pickup': '店頭受け取り',
  'Curbside Pickup': '店舗前受け取り',
  'Pickup Not Offered': '受け取り不可',
  Delivery: '配達',
  'Same Day Delivery': '当日配達',
  'No-Contact Delivery': '非対面配達',
  'Delivery Not Offered': '配達不可',
};

/** The payment options list (spec 2 §3: cards, electronic money, QR pay, cash, cheque…). */
export const PAYMENT_OPTIONS = [
  { value: 'cash', text: '現金' },
  { value: 'credit_card', text: 'クレジットカード' },
  { value: 'visa', text: 'VISA' },
  { value: 'mastercard', text: 'Mastercard' },
  { value: 'jcb', text: 'JCB' },
  { value: 'amex', text: 'American Express' },
  { value: 'diners', text: 'Diners Club' },
  { value: 'debit_card', text: 'デビットカード' },
  { value: 'suica', text: '交通系電子マネー（Suica 等）' },
  { value: 'id', text: 'iD' },
  { value: 'quicpay', text: 'QUICPay' },
  { value: 'edy', text: '楽天Edy' },
  { value: 'waon', text: 'WAON' },
  { value: 'nanaco', text: 'nanaco' },
  { value: 'paypay', text: 'PayPay' },
  { value: 'rakuten_pay', text: '楽天ペイ' },
  { value: 'd_barai', text: 'd払い' },
  { value: 'au_pay', text: 'au PAY' },
  { value: 'line_pay', text: 'LINE Pay' },
  { value: 'alipay', text: 'Alipay' },
  { value: 'wechat_pay', text: 'WeChat Pay' },
  { value: 'nfc_mobile', text: 'NFC モバイル決済' },
  { value: 'cheque', text: '小切手' },
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
    postal_code: required('postal_code').regex(
      /^\d{3}-?\d{4}$/,
      '郵便番号は 123-4567 の形式で入力してください。',
    ),
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
      .regex(E164, '電話番号の形式が正しくありません。')
      .nullish()
      .transform((v) => v ?? null),
    primary_category_id: categoryId.nullish().transform((v) => v ?? null),
    primary_category_name: z.string().trim().max(200).nullish(),
    additional_categorie_id: z
      .array(categoryId)
      .max(
        ADDITIONAL_CATEGORIES_MAX,
        `${storeInfoLabels.additional_categories}は${ADDITIONAL_CATEGORIES_MAX}個までです。`,
      )
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
    message: '同じカテゴリが重複しています。',
  })
  .refine(
    (r) => !r.primary_category_id || !r.additional_categorie_id.includes(r.primary_category_id),
    {
      path: ['additional_categorie_id'],
      message: 'メインカテゴリを追加カテゴリにも選ぶことはできません。',
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
      ctx.addIssue({ code: 'custom', message: '営業時間の形式が正しくありません。' });
      return z.NEVER;
    }
  })
  .pipe(z.array(timePeriodSchema, { error: '営業時間の形式が正しくありません。' }).max(50));

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
    z
      .array(z.string().trim().max(254).email(ja.email))
      .max(10, `${storeInfoLabels.email}は10件までです。`),
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
