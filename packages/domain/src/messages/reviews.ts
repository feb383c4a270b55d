import { REVIEW_REPLY_MAX_BYTES } from '../reviews/schemas';

/** Japanese texts of the reviews calls (issue 25; docs/product/reviews.md). */
export const reviewJa = {
  replySent: '返信を送信しました。Google の確認後に口コミに表示されます。',
  replyDeleted: '返信を削除しました。',
  replyRequired: '返信を入力してください。',
  replyTooLong: `返信は${REVIEW_REPLY_MAX_BYTES.toLocaleString('ja-JP')}バイト以内で入力してください。`,
  replyBlocked:
    '送信できない表現が含まれています。修正するか、内容を確認したうえで送信してください。',
  /** One line per blocking finding under the field. */
  findingLine: (title: string, phrase: string) => `${title}：「${phrase}」`,
  /** The audit log's lines. */
  auditReplied: (store: string) => `${store}の口コミに返信`,
  auditReplyEdited: (store: string) => `${store}の口コミへの返信を編集`,
  auditReplyDeleted: (store: string) => `${store}の口コミへの返信を削除`,
  auditOverride: '（確認のうえ、指摘された表現のまま送信）',
} as const;
