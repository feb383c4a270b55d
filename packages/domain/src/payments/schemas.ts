import { z } from 'zod';
import { ja } from '../messages/ja';
import { paymentJa } from '../messages/payments';
import { CARD_NAME_MAX, CARD_NUMBER_DIGITS, CARD_YEAR_OPTIONS, CVV_MAX, CVV_MIN } from './limits';
import { userIdField } from '../stores/schemas';
import { tokyoParts } from '../tokyo';

/**
 * Plans, payment methods and the credit card (spec 1 §2, §3, §4, §5, §7, §8, §9; issue 13;
 * ADR 0050). The card number never reaches Tenpo: the browser turns it into a one-time token at
 * the card provider (SBPS's `com_sbps_system.generateToken`), and Tenpo only sends the token on.
 */

/** Spec 1 §3: plan ids 1 standard and 2 premium; spec 1 §9: 6,980 and 20,000 yen a month. */
export const PLAN = { standard: 1, premium: 2 } as const;
export type PlanId = (typeof PLAN)[keyof typeof PLAN];
export const PLAN_IDS: readonly PlanId[] = [PLAN.standard, PLAN.premium];
export const DEFAULT_PLAN_PRICES: Readonly<Record<PlanId, number>> = { 1: 6980, 2: 20000 };

/** Spec 1 §4: the payment result codes the return carries in `stt_id`. */
export const PAYMENT_RESULT = { success: 12999, fail: 18999 } as const;

/** DESIGN §10: the free trial lasts 30 days from registration. */
export const TRIAL_DAYS = 30;

/** Payment methods (spec 1 §3: key, name, payment_btn_disable). */
export const PAYMENT_METHODS = ['credit_card', 'agency_invoice'] as const;
export type PaymentMethodKey = (typeof PAYMENT_METHODS)[number];

/**
 * The brand codes Tenpo answers (spec 1 §3: AMEX, D, J, M, V, other). SBPS itself sends one
 * letter (providers.md §5.5): `A` is shown as AMEX, anything unknown as `other`.
 */
export const CARD_BRANDS = ['AMEX', 'D', 'J', 'M', 'V', 'other'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];
export const cardBrandOf = (sbps: string | null | undefined): CardBrand => {
  const c = (sbps ?? '').trim().toUpperCase();
  if (c === 'A' || c === 'AMEX') return 'AMEX';
  if (c === 'D' || c === 'J' || c === 'M' || c === 'V') return c;
  return 'other';
};

const L = paymentJa.labels;

/** GET calls that name one store. */
export const paymentStoreQuery = z.object({ user_id: userIdField });

export const paymentMethodSchema = z.object({
  key: z.enum(PAYMENT_METHODS),
  name: z.string(),
  /** The method cannot be chosen by this store (agency invoice for a direct customer). */
  payment_btn_disable: z.boolean(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const paymentPlanSchema = z.object({
  key: z.union([z.literal(1), z.literal(2)]),
  name: z.string(),
  /** Monthly price in yen, from the payment settings (config). */
  price: z.number().int(),
  /** What the next charge on this plan is, in yen (tax included). */
  amount: z.number().int(),
});
export type PaymentPlan = z.infer<typeof paymentPlanSchema>;

/** POST /payment-methods. */
export const paymentMethodBody = z.object({
  payment_name: z.enum(PAYMENT_METHODS, { error: paymentJa.methodInvalid }),
  user_id: userIdField,
});

/** POST /payment-plans: `payment_name` is always credit_card in the spec's screen. */
export const paymentPlanBody = z.object({
  payment_name: z.enum(PAYMENT_METHODS, { error: paymentJa.methodInvalid }).default('credit_card'),
  payment_plan: z.coerce
    .number({ error: ja.required(L.payment_plan) })
    .refine((v): v is PlanId => v === 1 || v === 2, paymentJa.planInvalid),
  user_id: userIdField,
});

/** The store's current plan, and the one that takes over at the next charge (ADR 0050). */
export const selectedPlanSchema = paymentPlanSchema.extend({
  /** A change chosen while a paid period runs: it applies from `next_billing_on`. */
  next_plan: paymentPlanSchema.nullable(),
  /** Tokyo day (YYYY-MM-DD) of the next monthly charge; null before the first payment. */
  next_billing_on: z.string().nullable(),
  /** Last Tokyo day (YYYY-MM-DD) already paid for; null before the first payment. */
  paid_through: z.string().nullable(),
});
export type SelectedPlan = z.infer<typeof selectedPlanSchema>;

export const creditCardSchema = z.object({
  /** Masked by SBPS, e.g. ************1111. */
  cc_number: z.string(),
  /** YYYYMM. */
  cc_expiration: z.string(),
  cardbrand_code: z.enum(CARD_BRANDS),
});
export type CreditCard = z.infer<typeof creditCardSchema>;

/** POST /payment/credit-card/register: the token pair from generateToken, never the number. */
export const cardRegisterBody = z.object({
  token: z
    .string({ error: ja.required(L.token) })
    .trim()
    .min(1, ja.required(L.token))
    .max(128),
  tokenKey: z
    .string({ error: ja.required(L.tokenKey) })
    .trim()
    .min(1, ja.required(L.tokenKey))
    .max(128),
  user_id: userIdField,
});

/** GET /payment/provider: what the browser needs to load the token script. */
export const paymentProviderSchema = z.object({
  token_script_url: z.string(),
  merchant_id: z.string(),
  service_id: z.string(),
});

/** POST /payment/purchase: the hosted purchase page's form, to be posted by the browser. */
export const purchaseBody = z.object({ user_id: userIdField });
export const purchaseFormSchema = z.object({
  action: z.string(),
  /** In SBPS's definition order; `sps_hashcode` last. */
  fields: z.array(z.object({ name: z.string(), value: z.string() })),
  order_id: z.string(),
  amount: z.number().int(),
});
export type PurchaseForm = z.infer<typeof purchaseFormSchema>;

/** Responses. */
export const paymentMethodsResponse = z.array(paymentMethodSchema);
export const paymentPlansResponse = z.array(paymentPlanSchema);
export const selectedMethodResponse = paymentMethodSchema.nullable();
export const selectedPlanResponse = selectedPlanSchema.nullable();
export const creditCardResponse = creditCardSchema.nullable();

/** The card form of spec 1 §5 (browser only: the number goes to the token script, not to us). */
const digits = (s: string) => s.replace(/\D/g, '');
export const cardFormSchema = (now: Date = new Date()) =>
  z
    .object({
      cardNumber: z
        .string()
        .trim()
        .min(1, ja.required(L.cardNumber))
        .refine((v) => /^[\d ]+$/.test(v) && digits(v).length === CARD_NUMBER_DIGITS, {
          error: paymentJa.cardNumberDigits,
        }),
      cardName: z.string().trim().min(1, ja.required(L.cardName)).max(CARD_NAME_MAX),
      cardYear: z.string().min(1, ja.required(L.cardYear)),
      cardMonth: z.string().min(1, ja.required(L.cardMonth)),
      cardCvv: z
        .string()
        .trim()
        .min(1, ja.required(L.cardCvv))
        .regex(new RegExp(`^\\d{${CVV_MIN},${CVV_MAX}}$`), paymentJa.cvvDigits),
    })
    .superRefine((v, ctx) => {
      // Tokyo's year and month (DESIGN §5): a card valid through this month is still good.
      const tokyo = tokyoParts(now);
      const ym = tokyo.year * 100 + tokyo.month;
      const y = Number(v.cardYear);
      const m = Number(v.cardMonth);
      if (y > 0 && m > 0 && y * 100 + m < ym)
        ctx.addIssue({ code: 'custom', path: ['cardMonth'], message: paymentJa.cardExpired });
    });
export type CardForm = z.infer<ReturnType<typeof cardFormSchema>>;

/** Spec 1 §5: 48 years from this year (Tokyo), and months 01–12. */
export const cardYears = (now: Date = new Date()): number[] => {
  const y = tokyoParts(now).year;
  return Array.from({ length: CARD_YEAR_OPTIONS }, (_, i) => y + i);
};
export const CARD_MONTHS: readonly string[] = Array.from({ length: 12 }, (_, i) =>
  String(i + 1).padStart(2, '0'),
);
/** `4111111111111111` → `4111 1111 1111 1111` as typed (spec 1 §5's mask). */
export const maskCardNumber = (typed: string): string =>
  digits(typed)
    .slice(0, CARD_NUMBER_DIGITS)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
