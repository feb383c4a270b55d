/** Messages of the basic-information lookups (spec 2 §7). */
export const lookupMessages = {
  postalCodeMalformed: '郵便番号は7桁の数字（例: 150-0002）で入力してください。',
  postalCodeUnknown: (shown: string) => `郵便番号 ${shown} に該当する住所が見つかりません。`,
  regionCode: '地域コードは JP または VN を指定してください。',
  searchTooLong: (max: number) => `検索語は${max}文字以内で入力してください。`,
} as const;
