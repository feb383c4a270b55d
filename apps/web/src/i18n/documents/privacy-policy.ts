import type { LegalDocument } from './types';

/**
 * The privacy policy of /facebook-terms-and-privacy (spec 1 §1), a document module of its own
 * (ADR 0084): its screen imports it, so that its text stays in the screen's chunk.
 */
export const privacyPolicyJa = {
  intro:
    'Tenpo（以下「本サービス」）を運営する当社（日本）は、利用者の個人情報を以下のとおり取り扱います。',
  sections: [
    {
      title: '1. 収集する情報',
      items: ['氏名', '住所・郵便番号', '電話番号', 'ログイン情報（メールアドレス等）'],
    },
    {
      title: '2. Facebook ページ・Instagram アカウントの管理',
      text: '本サービスは、利用者の許可に基づき、利用者の Facebook ページ及び Instagram アカウントを管理し、投稿の作成・公開やインサイトの取得を行います。取得した情報は本サービスの提供にのみ利用します。',
    },
    {
      title: '3. 利用目的',
      text: '収集した情報は、店舗情報の管理、投稿の配信、レポートの作成、お問い合わせへの対応、及び本サービスの改善のために利用します。',
    },
    {
      title: '4. 第三者提供',
      text: '法令に基づく場合を除き、利用者の同意なく個人情報を第三者に提供しません。',
    },
    {
      title: '5. 13歳未満の方について',
      text: '本サービスは13歳未満の方を対象としておらず、13歳未満の方の情報を意図して収集することはありません。',
    },
    {
      title: '6. データの削除',
      text: '連携の解除やデータの削除をご希望の場合は、アカウント設定から連携を解除するか、当社までご連絡ください。',
    },
  ],
  footer: '最終更新日：2022年9月19日',
} satisfies LegalDocument;
