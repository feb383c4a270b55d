import { REVIEW_REPLY_MAX_BYTES } from '../reviews/schemas';
import { REPLY_TEMPLATE_MAX_BYTES, REPLY_TEMPLATES_PER_BAND_MAX } from '../reviews/template-limits';

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

/**
 * Reply templates and drafts (issue 25 item 4, ADR 0091): the messages, the star bands' names
 * and the built-in templates a store without templates of its own or its agency's draws from.
 * The built-in ones name no reviewer (the check warns on a reviewer's name) and pass the
 * compliance check of every rule set (templates.test.ts).
 */
export const reviewTemplateJa = {
  bodyRequired: 'テンプレートの本文を入力してください。',
  bodyTooLong: `テンプレートは${REPLY_TEMPLATE_MAX_BYTES.toLocaleString('ja-JP')}バイト以内で入力してください。`,
  unknownVariables: (names: string) =>
    `使えない差し込み項目があります：${names}。使えるのは {reviewer_name}（お客様名）と {store_name}（店舗名）です。`,
  tooMany: `テンプレートは評価帯ごとに${REPLY_TEMPLATES_PER_BAND_MAX}件まで登録できます。`,
  agencyOnly: '代理店のテンプレートは代理店のアカウントでのみ登録・編集できます。',
  created: 'テンプレートを登録しました。',
  updated: 'テンプレートを更新しました。',
  deleted: 'テンプレートを削除しました。',
  /** What {reviewer_name} becomes for an anonymous reviewer (a named one: the name and 様). */
  anonymousName: 'お客様',
  honorific: '様',
  bands: { low: '低評価（★1〜2）', mid: '中評価（★3）', high: '高評価（★4〜5）' },
  /** Language-model drafts: 409 when off, 502/503 when the model's service fails. */
  llmOff: 'AI下書きは設定されていません。テンプレートから下書きを作成してください。',
  llmFailed: 'AI下書きを作成できませんでした。時間をおいてもう一度お試しください。',
  llmBusy: 'AI下書きが混み合っています。しばらくしてからもう一度お試しください。',
  llmRefused:
    'AI下書きのサービスが利用できません（認証・設定の誤り）。管理者にお問い合わせください。',
  llmEmpty: 'AI下書きの結果が空でした。もう一度お試しください。',
  builtin: {
    low: [
      'この度は{store_name}をご利用いただいたにもかかわらず、ご不快な思いをおかけし、誠に申し訳ございません。いただいたご指摘を真摯に受け止め、スタッフ一同で改善に努めてまいります。',
      '貴重なご意見をお寄せいただき、ありがとうございます。ご期待に沿えず、大変申し訳ございませんでした。ご指摘の点はスタッフ全員で共有し、同じことが起きないよう取り組んでまいります。\n{store_name}',
      '{store_name}をご利用いただき、ありがとうございました。ご満足いただけなかったこと、心よりお詫び申し上げます。よろしければ詳しい状況を店舗までお聞かせください。改めて対応させていただきます。',
    ],
    mid: [
      'この度は{store_name}をご利用いただき、ありがとうございます。行き届かない点があったことと存じます。いただいたご意見をスタッフ一同で共有し、より良いサービスをご提供できるよう努めてまいります。',
      '率直なご感想をお寄せいただき、ありがとうございます。お気づきの点は一つひとつ見直し、次の機会にはより快適にお過ごしいただけるよう努めます。\n{store_name}',
      '{store_name}をご利用いただき、ありがとうございました。良かった点も至らなかった点も教えていただき、大変ありがたく思います。またお越しいただける日を、スタッフ一同お待ちしております。',
    ],
    high: [
      'この度は{store_name}をご利用いただき、誠にありがとうございます。温かいお言葉をいただき、スタッフ一同大変うれしく思っております。またお会いできる日を心よりお待ちしております。',
      '{store_name}へのうれしいご感想をお寄せいただき、ありがとうございます。いただいたお言葉を励みに、これからも心を込めてお迎えいたします。またのお越しをお待ちしております。',
      '素敵な口コミをありがとうございます。楽しい時間をお過ごしいただけたようで、何よりです。今後も気持ちよくご利用いただけるよう努めてまいります。\n{store_name} スタッフ一同',
    ],
  },
} as const;
