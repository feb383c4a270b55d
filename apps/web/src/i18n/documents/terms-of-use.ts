import type { LegalDocument } from './types';

/**
 * The default terms of use (spec 1 §9: dated September 2023; the system is provided as-is with
 * limited liability; listing data, device information and social-account credentials may be
 * sent to the developer), a document module of its own (ADR 0084), imported by TermsText.
 */
export const termsOfUseJa = {
  title: 'Tenpo 利用規約',
  intro:
    '本規約は、Tenpo（以下「本システム」）の利用条件を定めるものです。利用者は本規約に同意のうえ本システムを利用するものとします。',
  sections: [
    {
      title: '第1条（提供条件）',
      text: '本システムは現状有姿で提供されます。当社は、本システムが利用者の特定の目的に適合すること、及び不具合が生じないことを保証しません。',
    },
    {
      title: '第2条（責任の制限）',
      text: '本システムの利用により利用者に生じた損害について、当社は故意又は重過失による場合を除き責任を負いません。責任を負う場合も、その範囲は直接かつ通常の損害に限られます。',
    },
    {
      title: '第3条（情報の送信）',
      text: '本システムの提供のため、次の情報が開発者に送信される場合があります。',
      items: [
        'Google ビジネスプロフィール等の店舗掲載情報',
        'ご利用の端末に関する情報',
        '連携した SNS アカウントの認証情報',
      ],
    },
    {
      title: '第4条（規約の変更）',
      text: '当社は必要に応じて本規約を変更できます。変更後の規約は本システム上に表示した時点から効力を生じます。',
    },
  ],
  footer: '2023年9月 制定',
} satisfies LegalDocument;
