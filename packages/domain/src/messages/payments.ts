import { CARD_NUMBER_DIGITS, CVV_MAX, CVV_MIN } from '../payments/limits';
import type { CardBrand, PaymentMethodKey, PlanId } from '../payments/schemas';

/** Japanese texts of the payment calls and screens (spec 1 §8 where it has the wording). */
export const paymentJa = {
  labels: {
    user_id: '店舗',
    payment_name: '支払い方法',
    payment_plan: 'プラン',
    token: 'カードのトークン',
    tokenKey: 'カードのトークンキー',
    cardNumber: 'カード番号',
    cardName: 'カード名義',
    cardYear: '有効期限（年）',
    cardMonth: '有効期限（月）',
    cardCvv: 'セキュリティコード',
  },
  plans: { 1: 'スタンダード', 2: 'プレミアム' } as Record<PlanId, string>,
  methods: { credit_card: 'クレジットカード', agency_invoice: '代理店請求' } as Record<
    PaymentMethodKey,
    string
  >,
  brands: {
    AMEX: 'American Express',
    D: 'Diners Club',
    J: 'JCB',
    M: 'Mastercard',
    V: 'VISA',
    other: 'その他',
  } as Record<CardBrand, string>,
  /** Spec 1 §8, success messages. */
  methodChanged: '支払い方法を変更しました。',
  planChanged: 'プランを変更しました。',
  paymentRegistered: 'お支払い情報を登録しました。',
  cardRegistered: 'カードを登録しました。',
  cardRemoved: 'カードを削除しました。',
  /** Spec 1 §8, errors. */
  cardInvalid: 'カード情報が正しくありません。',
  tokenFailed: 'トークン取得に失敗しました。',
  cardRegisterFailed: 'カードを登録できませんでした。',
  paymentFailedTitle: 'お支払いを完了できませんでした',
  paymentFailed: 'お支払いが完了できませんでした。詳しくはメールで送信しました。',
  paymentSuccessTitle: 'お支払いが完了しました',
  paymentSuccess: 'お支払いが完了しました。領収書をメールでお送りしました。',
  /** Server-side refusals. */
  methodUnavailable: 'この支払い方法は選択できません。',
  planInvalid: 'プランの値が正しくありません。',
  methodInvalid: '支払い方法の値が正しくありません。',
  noCard: 'クレジットカードが登録されていません。先にカードを登録してください。',
  noPlan: 'プランを選択してください。',
  alreadyPaid: 'この期間のお支払いは完了しています。',
  cardInUse:
    'ご利用中の有料プランのお支払いに使われているため、カードを削除できません。新しいカードを登録すると置き換わります。',
  providerDown: 'カード決済サービスに接続できませんでした。時間をおいて再度お試しください。',
  /** Spec 1 §5: the card form. */
  cardNumberDigits: `カード番号は${CARD_NUMBER_DIGITS}桁で入力してください。`,
  cvvDigits: `セキュリティコードは${CVV_MIN}〜${CVV_MAX}桁の数字で入力してください。`,
  cardExpired: 'カードの有効期限が切れています。',
  monthLabel: (mm: string) => `${mm}月`,
  yearLabel: (yyyy: number) => `${yyyy}年`,
  /** Spec 1 §2: leaving /register-payment without a card during the trial. */
  leaveAlert: 'クレジットカード情報を登録してください。このページを離れますか？',
  planEffectiveNext: (date: string) => `新しいプランは次回のお支払い（${date}）から適用されます。`,
} as const;
