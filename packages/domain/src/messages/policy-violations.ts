/**
 * Google's reasons for rejecting a reply (ReviewReply.PolicyViolation, v4 reference, 2026-07-01),
 * as the inbox shows them. An unknown value (Google adds some) is shown as Google sent it.
 */
const LABELS: Record<string, string> = {
  POLICY_VIOLATION_UNSPECIFIED: '理由は示されていません',
  ACCOUNT_RESTRICTED_AND_SUSPENDED: 'アカウントが制限・停止されています',
  ACCOUNT_RESTRICTED_AND_EDIT_REJECTED: 'アカウントの制限により編集が却下されました',
  ASSOCIATED_ACCOUNT_SUSPENDED: '関連するアカウントが停止されています',
  BUSINESS_INELIGIBLE: 'ビジネスプロフィールの対象外です',
  OWNERSHIP_REVOKED: 'オーナー権限が取り消されています',
  LOCATION_SUSPENDED: 'ビジネス情報が停止されています',
  LOCATION_DISABLED: 'ビジネス情報が無効になっています',
  LOCATION_VERIFICATION_REQUIRED: 'ビジネスのオーナー確認が必要です',
  PO_BOX: '私書箱の住所は使用できません',
  GOOGLE_PAY_SUSPENSION: 'Google Pay の停止による制限です',
  EDITING_RESTRICTION: '編集が制限されています',
  ILLEGAL_BUSINESS_HOURS_EDIT: '営業時間の編集が認められませんでした',
  FAKE_ENGAGEMENT: '虚偽のエンゲージメント',
  ADULT_THEMED: '成人向けの内容',
  SEXUALLY_EXPLICIT: '露骨な性的表現',
  ADVERTISING_AND_SOLICITATION: '広告・勧誘',
  DANGEROUS: '危険な内容',
  GIBBERISH_AND_REPETITIVE: '意味のない内容・繰り返し',
  REPETITIVE: '同じ内容の繰り返し',
  UNCLEAR: '内容が不明瞭です',
  ILLEGAL: '違法な内容',
  OFF_TOPIC: '関係のない内容',
  OFFENSIVE: '不快な内容',
  VIOLENCE_AND_GORE: '暴力的・残虐な内容',
  CHILD_SAFETY: '児童の安全に関わる内容',
  HARASSMENT: '嫌がらせ',
  HATE_SPEECH: 'ヘイトスピーチ',
  IMPERSONATION: 'なりすまし',
  MISINFORMATION: '誤った情報',
  MISREPRESENTATION: '不実表示',
  OBSCENITY_AND_PROFANITY: 'わいせつ・冒とく的な表現',
  PERSONAL_INFO: '個人情報',
  REGULATED_GOODS_AND_SERVICES: '規制対象の商品・サービス',
  GENERIC_VANDALISM: '荒らし行為',
  GENERIC_FRAUD: '詐欺的な内容',
  PHOTOS_AND_VIDEOS_CRITERIA: '写真・動画の基準を満たしていません',
  MODERATION_ERROR: 'Google の確認で問題がありました',
  PRIVACY: 'プライバシーに関わる内容',
  GENERIC_VIOLATION: 'ポリシー違反',
  GENERIC_QUALITY: '品質の基準を満たしていません',
  IDENTITY_CHANGE: 'ビジネスの実体の変更',
  GEOGRAPHIC_LOCATION_CHANGE: '所在地の変更',
};

/** The Japanese label of a PolicyViolation value, with the value itself for a reader who asks. */
export const policyViolationJa = (code: string): string => {
  const label = LABELS[code];
  return label ? `${label}（${code}）` : code;
};
