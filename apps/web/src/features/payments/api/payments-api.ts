import { useQuery } from '@tanstack/react-query';
import type {
  CreditCard,
  PaymentMethod,
  PaymentMethodKey,
  PaymentPlan,
  PlanId,
  PurchaseForm,
  SelectedPlan,
} from '@tenpo/domain';
import { api } from '@/lib/api-client';

/**
 * The payment calls of spec 1 §7 and the contract of issue 13 §3. Every call names the store it
 * acts for in `user_id` (the user's own store, or the store a manager or agency selected).
 */

export type PaymentProvider = { token_script_url: string; merchant_id: string; service_id: string };

export const paymentKeys = {
  all: (userId: number) => ['payments', userId] as const,
  provider: (userId: number) => ['payments', userId, 'provider'] as const,
  methods: (userId: number) => ['payments', userId, 'methods'] as const,
  plans: (userId: number) => ['payments', userId, 'plans'] as const,
  selectedMethod: (userId: number) => ['payments', userId, 'selected-method'] as const,
  selectedPlan: (userId: number) => ['payments', userId, 'selected-plan'] as const,
  card: (userId: number) => ['payments', userId, 'card'] as const,
};

const q = (userId: number) => ({ query: { user_id: userId } });

export const providerCall = async (userId: number) =>
  (await api<PaymentProvider>('/payment/provider', q(userId))).data;

export const methodsCall = async (userId: number) =>
  (await api<PaymentMethod[]>('/payment-methods', q(userId))).data;

export const changeMethodCall = (userId: number, method: PaymentMethodKey) =>
  api<PaymentMethod>('/payment-methods', {
    method: 'POST',
    body: { payment_name: method, user_id: userId },
  });

export const plansCall = async (userId: number) =>
  (await api<PaymentPlan[]>('/payment-plans', q(userId))).data;

/** The spec's screen always changes the plan of the card method (spec 1 §7). */
export const changePlanCall = (userId: number, plan: PlanId) =>
  api<SelectedPlan>('/payment-plans', {
    method: 'POST',
    body: { payment_name: 'credit_card', payment_plan: plan, user_id: userId },
  });

export const selectedMethodCall = async (userId: number) =>
  (await api<PaymentMethod | null>('/payment/selected-payment-method', q(userId))).data;

export const selectedPlanCall = async (userId: number) =>
  (await api<SelectedPlan | null>('/payment/selected-payment-plan', q(userId))).data;

/** Only the token pair leaves the browser for Tenpo; the card number went to the provider. */
export const registerCardCall = (userId: number, token: string, tokenKey: string) =>
  api<CreditCard>('/payment/credit-card/register', {
    method: 'POST',
    body: { token, tokenKey, user_id: userId },
  });

/** EMV 3-D Secure first (ADR 0059): stored at once, or the issuer's page to go to. */
export type CardAuthentication = {
  status: 'registered' | 'challenge';
  card: CreditCard | null;
  redirect_url: string | null;
};
export const authenticateCardCall = (
  userId: number,
  token: string,
  tokenKey: string,
  returnPath: string,
) =>
  api<CardAuthentication>('/payment/credit-card/authenticate', {
    method: 'POST',
    body: { token, tokenKey, user_id: userId, return_path: returnPath },
  });

/** Back from the issuer: Tenpo reads the verdict from SBPS and stores the card if it passed. */
export const completeCardCall = (userId: number, state: string, trackingId: string) =>
  api<CardAuthentication>('/payment/credit-card/authenticate/complete', {
    method: 'POST',
    body: { user_id: userId, state, tracking_id: trackingId },
  });

export const cardCall = async (userId: number) =>
  (await api<CreditCard | null>('/payment/credit-card/reference', q(userId))).data;

export const removeCardCall = (userId: number) =>
  api<null>('/payment/credit-card/remove', q(userId));

export const purchaseCall = async (userId: number) =>
  (await api<PurchaseForm>('/payment/purchase', { method: 'POST', body: { user_id: userId } }))
    .data;

export const usePaymentProvider = (userId: number) =>
  useQuery({
    queryKey: paymentKeys.provider(userId),
    queryFn: () => providerCall(userId),
    staleTime: Infinity,
  });
export const usePaymentMethods = (userId: number) =>
  useQuery({ queryKey: paymentKeys.methods(userId), queryFn: () => methodsCall(userId) });
export const usePaymentPlans = (userId: number) =>
  useQuery({ queryKey: paymentKeys.plans(userId), queryFn: () => plansCall(userId) });
export const useSelectedMethod = (userId: number) =>
  useQuery({
    queryKey: paymentKeys.selectedMethod(userId),
    queryFn: () => selectedMethodCall(userId),
  });
export const useSelectedPlan = (userId: number) =>
  useQuery({
    queryKey: paymentKeys.selectedPlan(userId),
    queryFn: () => selectedPlanCall(userId),
  });
export const useCreditCard = (userId: number) =>
  useQuery({ queryKey: paymentKeys.card(userId), queryFn: () => cardCall(userId) });
