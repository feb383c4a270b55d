/** Role values of spec 1 §4. */
export const ROLE = { freeTrial: 0, shop: 1, agency: 11, manager: 99 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const ROLES: readonly Role[] = [ROLE.freeTrial, ROLE.shop, ROLE.agency, ROLE.manager];

/** Account kind of spec 1 §4. */
export const ACCOUNT_KIND = { store: 0, agency: 1 } as const;

/** Free-trial notice types of spec 1 §4. */
export const TRIAL_NOTICE = { availability: 1, expire: 2 } as const;

/** The free trial lasts 30 days from registration (DESIGN §10). */
export const FREE_TRIAL_DAYS = 30;

/** Default agent code (spec 1 §9). */
export const DEFAULT_AGENT_CODE = '0000';

export const isStoreRole = (role: number): boolean => role === ROLE.freeTrial || role === ROLE.shop;

export type PaymentState = { role: number; in_trial: boolean; payment_fail: boolean };

/** The trial has ended: role free trial with in_trial false (spec 1 §4). */
export const trialEnded = (u: PaymentState): boolean => u.role === ROLE.freeTrial && !u.in_trial;

/**
 * Which panel replaces a guarded screen. Payment failure has priority over the
 * ended trial (spec 1 §4, spec 3 §2).
 */
export const paymentPanel = (u: PaymentState): 'confirm-mail' | 'pay-required' | null => {
  if (u.payment_fail) return 'confirm-mail';
  if (trialEnded(u)) return 'pay-required';
  return null;
};

/** User state code: 99 not logged in; 1 no payment failure and the trial ended; otherwise 2. */
export const userStateCode = (u: PaymentState | null): 99 | 1 | 2 => {
  if (!u) return 99;
  if (!u.payment_fail && trialEnded(u)) return 1;
  return 2;
};

/** The payment menu is shown only for an empty agent code or '0000' (spec 1 §2). */
export const paymentMenuVisible = (agentCode: string | null | undefined): boolean =>
  agentCode === null ||
  agentCode === undefined ||
  agentCode === '' ||
  agentCode === DEFAULT_AGENT_CODE;

export type StoreOptionState = { status: number; role: number; in_trial: boolean };

/** Store selector: a store is disabled if status is 0, or (single-store) not in trial with role 0. */
export const storeOptionDisabled = (s: StoreOptionState, mode: 'single' | 'multi'): boolean => {
  if (s.status === 0) return true;
  if (mode === 'single' && !s.in_trial && s.role === ROLE.freeTrial) return true;
  return false;
};
