import { ADDITIONAL_CATEGORIES_MAX, EMAILS_MAX } from '../store-info/limits';
import type { WeekDay } from '../store-info/hours';
import type { PICKUP_DELIVERY } from '../store-info/schemas';

/** Japanese texts of /basic-information's three forms and their calls (spec 2 §2, §3, §5, §7). */
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

export const WEEK_DAY_LABELS: Record<WeekDay, string> = {
  MONDAY: '月曜日',
  TUESDAY: '火曜日',
  WEDNESDAY: '水曜日',
  THURSDAY: '木曜日',
  FRIDAY: '金曜日',
  SATURDAY: '土曜日',
  SUNDAY: '日曜日',
};

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

export const storeInfoJa = {
  postalCodeFormat: '郵便番号は 123-4567 の形式で入力してください。',
  phoneFormat: '電話番号の形式が正しくありません。',
  tooManyCategories: `${storeInfoLabels.additional_categories}は${ADDITIONAL_CATEGORIES_MAX}個までです。`,
  duplicateCategory: '同じカテゴリが重複しています。',
  primaryAlsoAdditional: 'メインカテゴリを追加カテゴリにも選ぶことはできません。',
  hoursFormat: '営業時間の形式が正しくありません。',
  tooManyEmails: `${storeInfoLabels.email}は${EMAILS_MAX}件までです。`,
  pastMidnight: '24:00 より後の時刻は指定できません。',
} as const;
