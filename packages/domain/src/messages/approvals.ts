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
