/** Japanese texts of in-app notices and their settings (issue 25 item 2, ADR 0094). */
export const noticeJa = {
  reviewsNew: (store: string, n: number) => `${store}に新しい口コミが${n}件届きました`,
  approvalRequested: (store: string) => `${store}の口コミへの返信の承認依頼が届きました`,
  approvalSent: (store: string) => `${store}の口コミへの返信が承認され、送信されました`,
  approvalRejected: (store: string) => `${store}の口コミへの返信が差し戻されました`,
  approvalExpired: (store: string) => `${store}の口コミへの返信の承認依頼が期限切れになりました`,
  postApprovalRequested: (store: string) => `${store}の投稿の承認依頼が届きました`,
  postApprovalApproved: (store: string) => `${store}の投稿が承認されました`,
  postApprovalRejected: (store: string) => `${store}の投稿が差し戻されました`,
  postApprovalExpired: (store: string) => `${store}の投稿の承認依頼が期限切れになりました`,
  reviewsSpike: (store: string, n: number) =>
    `${store}で低評価（★1〜2）の口コミが急に増えています（${n}件）`,
  reviewsSpikeBody: (threshold: number) =>
    `24時間で★1〜2が通常の3倍（${threshold}件）以上になりました。内容を確認し、Google のポリシーに違反する口コミは報告できます。`,
  noComment: '（コメントなし）',
  settingsSaved: '通知の設定を保存しました。',
  allRead: 'すべて既読にしました。',
} as const;
