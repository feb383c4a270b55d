import { APPROVAL_NOTE_MAX, postApprovalJa, type PostApprovalState } from '@tenpo/domain';

/**
 * The texts of posts' approval (ADR 0095) on /posts and the post form. They live here rather
 * than in the app's `ja` resource while the feature settles; the API's answers carry their own
 * messages (`postApprovalJa`), these are the fallbacks and the screen's labels.
 */
export const postApprovalTexts = {
  /** Target and overall states a post gains with approval. */
  states: {
    awaiting_approval: '承認待ち',
    not_approved: '承認されず',
  },
  /** Why a post was not approved, from its request's state. */
  reasons: {
    pending: '承認待ち',
    approved: '承認済み',
    rejected: '差し戻し',
    withdrawn: '取り下げ',
    expired: '期限切れ',
  } satisfies Record<PostApprovalState, string>,
  notApproved: (reason: string) => `承認されず（${reason}）`,
  notSent: 'この投稿は送信されません。',
  note: (note: string) => `差し戻しの理由: ${note}`,
  queueTitle: (n: number) => `承認待ちの投稿（${n}件）`,
  showAll: (n: number) => `すべて表示（${n}件）`,
  showFewer: '一部のみ表示',
  channels: '投稿先',
  publishDate: '投稿日時',
  publishNow: '承認後すぐ',
  deleteDate: '削除日時',
  pastPublishDate: '投稿日時を過ぎています。承認するとすぐに投稿されます',
  by: (email: string, at: string) => `${email} さんが依頼（${at}）`,
  expires: (at: string) => `${at} までに承認されない場合は期限切れになります`,
  approve: '承認',
  reject: '差し戻す',
  withdraw: '取り下げ',
  /** The buttons' names for a screen reader: which post they act on. */
  approveOf: (store: string) => `${store}の投稿を承認`,
  rejectOf: (store: string) => `${store}の投稿を差し戻す`,
  withdrawOf: (store: string) => `${store}の投稿の承認依頼を取り下げ`,
  rejectTitle: '投稿の差し戻し',
  rejectNote: '差し戻しの理由（任意）',
  rejectNoteHint: `依頼した方にお知らせします（${APPROVAL_NOTE_MAX}文字以内）。`,
  cancel: 'キャンセル',
  approved: postApprovalJa.approved,
  rejected: postApprovalJa.rejected,
  withdrawn: postApprovalJa.withdrawn,
  setting: '店舗の投稿に承認を必須にする',
  settingHint:
    'オンにすると、投稿は作成者以外（店舗または代理店）が承認してから予約どおりに投稿されます。',
  settingSaved: postApprovalJa.settingsSaved,
  /** The post form's notice near its submit button. */
  formNotice: 'この店舗の投稿は、承認されてから予約どおりに投稿されます。',
  formNoticeAll: '選択中の店舗の投稿は、承認されてから予約どおりに投稿されます。',
  formNoticeSome: '選択中の一部の店舗の投稿は、承認されてから予約どおりに投稿されます。',
} as const;
