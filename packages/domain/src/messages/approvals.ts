import { APPROVAL_NOTE_MAX } from '../reviews/approvals';

/** Japanese texts of replies' approval (issue 25 item 6, ADR 0093). */
export const approvalJa = {
  requested: '承認を依頼しました。承認されると Google に送信されます。',
  approvedSent: '承認して送信しました。Google の確認後に口コミに表示されます。',
  rejected: '差し戻しました。依頼した方にお知らせします。',
  withdrawn: '承認の依頼を取り下げました。',
  settingsSaved: '返信の承認の設定を保存しました。',
  /** 409s. */
  required: 'この店舗の返信は承認が必要です。「承認を依頼」から送ってください。',
  notRequired: 'この店舗の返信に承認は必要ありません。そのまま送信してください。',
  decided: 'この依頼はすでに処理されています。画面を更新してください。',
  ownRequest: 'ご自身が依頼した返信は承認できません。店舗または代理店の承認者に依頼してください。',
  notAuthor: '依頼した方のみ取り下げられます。',
  noteTooLong: `差し戻しの理由は${APPROVAL_NOTE_MAX}文字以内で入力してください。`,
  /** The audit log's lines. */
  auditRequested: (store: string) => `${store}の口コミへの返信の承認を依頼`,
  auditApproved: (store: string) => `${store}の口コミへの返信を承認して送信`,
  auditRejected: (store: string) => `${store}の口コミへの返信を差し戻し`,
  auditWithdrawn: (store: string) => `${store}の口コミへの返信の承認依頼を取り下げ`,
  auditSettings: (on: boolean) =>
    on ? '口コミ返信の承認を必須に設定' : '口コミ返信の承認を不要に設定',
} as const;

/** Japanese texts of posts' approval (ADR 0095). */
export const postApprovalJa = {
  /** The post form's answer when some of its stores' posts wait for approval. */
  created: (held: number, all: number) =>
    held === all
      ? '投稿を作成しました。承認されると予約どおりに投稿されます。'
      : `投稿を作成しました。${held}店舗の投稿は承認されると予約どおりに投稿されます。`,
  approved: '承認しました。予約どおりに投稿されます。',
  approvedNow: '承認しました。予約日時を過ぎているため、すぐに投稿します。',
  rejected: '差し戻しました。依頼した方にお知らせします。',
  withdrawn: '承認の依頼を取り下げました。この投稿は送信されません。',
  settingsSaved: '投稿の承認の設定を保存しました。',
  decided: 'この依頼はすでに処理されています。画面を更新してください。',
  ownRequest: 'ご自身が作成した投稿は承認できません。店舗または代理店の承認者に依頼してください。',
  notAuthor: '作成した方のみ取り下げられます。',
  /** 422: the removal date passed while it waited. */
  pastDeleteDate: '削除日時を過ぎているため承認できません。新しく投稿を作成してください。',
  auditRequested: (store: string) => `${store}の投稿の承認を依頼`,
  auditApproved: (store: string) => `${store}の投稿を承認`,
  auditRejected: (store: string) => `${store}の投稿を差し戻し`,
  auditWithdrawn: (store: string) => `${store}の投稿の承認依頼を取り下げ`,
  auditExpired: (store: string) => `${store}の投稿の承認依頼が期限切れ`,
  auditSettings: (on: boolean) => (on ? '投稿の承認を必須に設定' : '投稿の承認を不要に設定'),
} as const;
