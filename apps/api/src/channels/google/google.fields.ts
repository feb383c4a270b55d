import { storeInfoLabels, type StoreInfoField } from '@tenpo/domain';
import type { FieldViolation } from '../channel';

/**
 * Google's field paths named as Tenpo's forms name them (ADR 0061). Google spells a path in
 * snake_case in v1 field violations and v4 ErrorDetails, and in camelCase in masks; `[i]` of a
 * repeated field is ignored. A v4 ErrorDetail without a field is named by its ErrorCode range
 * (developers.google.com/my-business/reference/rest/Shared.Types/ErrorCode: 1000–1099 photos,
 * 1100–1199 address and lat/lng, 1200–1299 categories).
 */
const LISTING_KEYS: [RegExp, StoreInfoField | 'temporarily_closed'][] = [
  [/^title/, 'name'],
  [/^(storefront_address|storefrontAddress|address)\.(postal_code|postalCode)/, 'postal_code'],
  [
    /^(storefront_address|storefrontAddress|address)\.(administrative_area|administrativeArea)/,
    'prefecture',
  ],
  [/^(storefront_address|storefrontAddress|address)\.locality/, 'locality'],
  [/^(storefront_address|storefrontAddress|address)/, 'address1'],
  [/^(phone_numbers|phoneNumbers)/, 'main_phone'],
  [/^categories\.(additional_categories|additionalCategories)/, 'additional_categories'],
  [/^categories/, 'primary_category'],
  [/^(website_uri|websiteUri)/, 'website_url'],
  [/^(regular_hours|regularHours)/, 'hours'],
  [/^profile/, 'description'],
  [/^(open_info|openInfo)/, 'temporarily_closed'],
  [/^latlng/, 'latitude'],
];
const labelOfKey = (k: StoreInfoField | 'temporarily_closed'): string =>
  k === 'temporarily_closed' ? '臨時休業' : storeInfoLabels[k];
const LISTING: [RegExp, string][] = LISTING_KEYS.map(([re, k]) => [re, labelOfKey(k)]);

/** The /basic-information form field a Google path belongs to (its key in the save request). */
export function listingFormKey(v: FieldViolation): StoreInfoField | 'temporarily_closed' | null {
  const path = v.field.replace(/\[\d+\]/g, '');
  const hit = path ? LISTING_KEYS.find(([re]) => re.test(path))?.[1] : undefined;
  if (hit) return hit;
  if (v.code !== undefined && v.code >= 1100 && v.code <= 1199) return 'address1';
  if (v.code !== undefined && v.code >= 1200 && v.code <= 1299) return 'primary_category';
  return null;
}

/** A v4 local post's fields, as the post form names them (post-rules.ts FIELD, ja.ts topics). */
const POST: [RegExp, string][] = [
  [/^summary/, '投稿内容'],
  [/^(call_to_action|callToAction)\.(action_type|actionType)/, 'ボタンの種類'],
  [/^(call_to_action|callToAction)/, 'ボタンのリンク'],
  [/^media/, '写真・動画'],
  [/^event\.title/, 'タイトル'],
  [/^event\.schedule\.(start|startDate|start_date|startTime|start_time)/, '開始日時'],
  [/^event\.schedule/, '終了日時'],
  [/^offer\.(coupon_code|couponCode)/, 'クーポンコード'],
  [/^offer\.(redeem_online_url|redeemOnlineUrl)/, '特典利用のリンク'],
  [/^offer\.(terms_conditions|termsConditions)/, '利用規約'],
  [/^(language_code|languageCode)/, '投稿内容'],
];

const byCode = (code: number | undefined): string | null => {
  if (code === undefined) return null;
  if (code >= 1000 && code <= 1099) return '写真';
  if (code >= 1100 && code <= 1199) return storeInfoLabels.address1;
  if (code >= 1200 && code <= 1299) return storeInfoLabels.primary_category;
  return null;
};

/** The form's name of one refused field, or null when Google named none Tenpo knows. */
export function googleFieldLabel(v: FieldViolation, of: 'listing' | 'post'): string | null {
  const path = v.field.replace(/\[\d+\]/g, '');
  const table = of === 'listing' ? LISTING : POST;
  if (path) {
    const hit = table.find(([re]) => re.test(path))?.[1];
    if (hit) return hit;
  }
  return byCode(v.code);
}

/** The distinct names of the refused fields, in Google's order. */
export const googleFieldLabels = (
  fields: readonly FieldViolation[],
  of: 'listing' | 'post',
): string[] => [
  ...new Set(fields.map((f) => googleFieldLabel(f, of)).filter((x): x is string => x !== null)),
];
