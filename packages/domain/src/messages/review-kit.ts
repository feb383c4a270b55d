/**
 * The review-request kit's texts (issue 25 item 8): what a store may and may not do when it asks
 * customers for reviews. Sources: Google's contribution policy on fake engagement
 * (support.google.com/contributionpolicy/answer/7400114) and the Consumer Affairs Agency's
 * stealth-marketing rule under the Premiums and Representations Act (in force 2023-10-01,
 * www.caa.go.jp/policies/policy/representation/fair_labeling/stealth_marketing/).
 */
export const reviewKitJa = {
  title: 'Google の口コミを書いていただくためのリンクです',
  rules: [
    '割引・特典・プレゼントなどの見返りと引き換えに口コミを依頼しないでください（Google のポリシーで禁止されています）。',
    '「★5をお願いします」など評価を指定した依頼や、満足したお客様だけを選んで依頼することはできません。',
    '店舗のスタッフやその家族、関係者による口コミの投稿は禁止されています。',
    '事業者が依頼・関与した口コミであることを隠して宣伝に使うと、景品表示法のステルスマーケティング規制の対象となるおそれがあります。',
    'カードやポップには「率直なご感想をお聞かせください」のような中立的な表現をお使いください。',
  ],
  cardLead: '率直なご感想をお聞かせください',
  notConnected:
    'Google ビジネスプロフィールの店舗を連携すると、口コミのリンクと QR コードを表示できます。',
  /** Google gives no newReviewUri for a listing whose owner is not verified (or is suspended). */
  noLink:
    'Google がこの店舗の口コミ用リンクを返しませんでした。オーナー確認が済んでいない（または停止中の）店舗にはリンクがありません。Google ビジネスプロフィールでオーナー確認の状況をご確認ください。',
} as const;
