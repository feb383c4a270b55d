import { TEMPLATE_MAX_LENGTH } from '../knowledge-tag/limits';
import type { WeekDay } from '../store-info/hours';

/** Japanese texts of the knowledge tag's screens, calls and the page fields it fills (ADR 0045). */
export const knowledgeTagMessages = {
  analyticsOption: 'アクセス解析の設定を選択してください。',
  settingsSaved: 'アクセス解析の設定を保存しました。',
  templateSaved: 'マークアップを保存しました。',
  templateReset: 'マークアップを初期状態に戻しました。',
} as const;

export const templateMessages = {
  required: 'テンプレートを入力してください。',
  tooLong: `テンプレートは${TEMPLATE_MAX_LENGTH.toLocaleString('en-US')}文字以内で入力してください。`,
  invalidJson: 'JSON の形式が正しくありません。括弧、引用符、カンマを確認してください。',
  notObject: 'JSON-LD は { } で囲んだオブジェクトで入力してください。',
  unknownPlaceholder: (keys: string[]) =>
    `使用できない差し込み項目があります: ${keys.map((k) => `{{${k}}}`).join(', ')}`,
} as const;

/** Days as a Japanese hours line writes them (月 08:00–21:00 / 火 …). */
export const JA_DAY: Record<WeekDay, string> = {
  MONDAY: '月',
  TUESDAY: '火',
  WEDNESDAY: '水',
  THURSDAY: '木',
  FRIDAY: '金',
  SATURDAY: '土',
  SUNDAY: '日',
};

/** A day without opening hours in that line. */
export const CLOSED_DAY = '定休日';

/** The page fields' names, as /add-knowledge-tag lists them. */
export const embedFieldLabels = {
  name: '店舗名',
  address: '住所',
  postal_code: '郵便番号',
  telephone: '電話番号',
  url: 'ウェブサイト',
  hours: '営業時間',
} as const;
