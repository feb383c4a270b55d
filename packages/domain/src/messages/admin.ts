/** Japanese texts of the manager's admin (issue 12, ADR 0049). */
export const adminLabels = {
  email: 'メールアドレス',
  name: '担当者名',
  company_name: '会社名',
  store_name: '店舗名',
  phone: '電話番号',
  agent_code: '代理店コード',
  password: 'パスワード',
  status: 'ステータス',
  role: 'プラン',
  agency_id: '代理店',
  prefix: 'サブドメイン（プレフィックス）',
  title: 'アプリ名（タイトル）',
  logo: 'ロゴ画像',
  favicon: 'ファビコン',
  page: 'ページ',
} as const;

export const adminJa = {
  prefixFormat:
    'サブドメインは半角英小文字・数字・ハイフンの1〜63文字で、先頭と末尾にハイフンは使えません。',
  prefixReserved: (p: string) => `「${p}」はシステムで使うため、サブドメインに使えません。`,
  prefixTaken: 'このサブドメインはすでに他の代理店が使っています。',
  emailTaken: 'このメールアドレスはすでに登録されています。',
  agencyUnknown: '指定した代理店が見つかりません。',
  pageBeyondEnd: (last: number) => `ページは1〜${last}の範囲で指定してください。`,
  agencyCreated: '代理店を作成しました。',
  agencyUpdated: '代理店を更新しました。',
  agencyDeleted: (stores: number) =>
    stores > 0
      ? `代理店を削除しました。所属していた${stores}店舗は直接契約の顧客になりました。`
      : '代理店を削除しました。',
  storeCreated: '店舗を作成しました。',
  storeUpdated: '店舗を更新しました。',
  storeDeleted: '店舗を削除しました。',
  customerCreated: '顧客を作成しました。',
  customerUpdated: '顧客を更新しました。',
  customerDeleted: '顧客を削除しました。',
} as const;

/** Audit summaries (「代理店「ACME」を作成」). */
export const adminAudit = {
  agencyCreated: (n: string) => `代理店「${n}」を作成`,
  agencyUpdated: (n: string) => `代理店「${n}」を更新`,
  agencyDeleted: (n: string) => `代理店「${n}」を削除`,
  storeCreated: (n: string) => `店舗「${n}」を作成`,
  storeUpdated: (n: string) => `店舗「${n}」を更新`,
  storeDeleted: (n: string) => `店舗「${n}」を削除`,
  customerCreated: (n: string) => `顧客「${n}」を作成`,
  customerUpdated: (n: string) => `顧客「${n}」を更新`,
  customerDeleted: (n: string) => `顧客「${n}」を削除`,
  storeDetached: (store: string, agency: string) =>
    `代理店「${agency}」の削除により店舗「${store}」を直接契約の顧客に変更`,
  groupRemovedWithAgency: (g: string, agency: string) =>
    `代理店「${agency}」の削除によりグループ「${g}」を削除`,
  storeLeftGroups: (store: string) => `店舗「${store}」の代理店変更によりグループから外す`,
  loginChanged: (n: string, what: string) => `「${n}」のログイン情報を変更（${what}）`,
  loginCreated: (n: string) => `「${n}」のログインアカウントを作成`,
} as const;
