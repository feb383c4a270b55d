import { jsonStore, type JsonStore } from '../shared/store';
import { cardBrand, demoCustomerCards, maskCard, type CardBrand } from './sbps.constants';

/** A card as the sandbox keeps it: the full number never leaves the sandbox. */
export type SbpsCard = { number: string; expiration: string; brand: CardBrand };

export type SbpsCustomer = {
  merchantId: string;
  serviceId: string;
  custCode: string;
  card: SbpsCard;
  resrv: [string, string, string];
  createdAt: number;
  updatedAt: number;
};

export type SbpsToken = {
  token: string;
  tokenKey: string;
  merchantId: string;
  serviceId: string;
  card: SbpsCard;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
};

export type SbpsTxStatus = 'authorised' | 'sold' | 'refunded' | 'declined';

export type SbpsTransaction = {
  trackingId: string;
  spsTransactionId: string;
  merchantId: string;
  serviceId: string;
  orderId: string;
  custCode: string;
  itemId: string;
  itemName: string;
  amount: number;
  tax: number;
  status: SbpsTxStatus;
  /** `api` (ST01 over XML) or `link` (the hosted purchase page). */
  channel: 'api' | 'link';
  card: { brand: CardBrand; masked: string; expiration: string };
  recognizedNo: string;
  errCode: string;
  /**
   * ST02-00101 (確定): when, and the `res_process_date` it answered. Sales (ST02-00201) takes a
   * committed authorisation only. Absent on older state and on the hosted page's sales.
   */
  committedAt?: number;
  commitDate?: string;
  /** When it was sold (ST02-00201, or the hosted page): a later ST02-00303 is a refund. */
  soldAt?: number;
  createdAt: number;
  updatedAt: number;
};

/** One A02-1 the sandbox sent to a pagecon_url, with what the merchant answered. */
export type SbpsNotification = {
  id: string;
  url: string;
  orderId: string;
  trackingId: string;
  /** The fields in A02-1 order, decoded. */
  fields: [string, string][];
  /** The Shift_JIS form body exactly as sent (percent-escaped ASCII). */
  body: string;
  sentAt: number;
  reply: { status: number; body: string } | null;
  error: string | null;
  accepted: boolean;
  /** Later sends of the same body through the resend control. */
  resends: {
    at: number;
    reply: { status: number; body: string } | null;
    error: string | null;
    accepted: boolean;
  }[];
};

/** A purchase request accepted by FepBuyInfoReceive.do, waiting for the card page's answer. */
export type SbpsPurchase = {
  id: string;
  fields: Record<string, string>;
  createdAt: number;
  state: 'open' | 'paid' | 'failed' | 'cancelled';
};

export type SbpsState = {
  customers: SbpsCustomer[];
  tokens: SbpsToken[];
  transactions: SbpsTransaction[];
  /** `merchant:service:order_id` → tracking id of the transaction that took the order id. */
  orders: Record<string, string>;
  notifications: SbpsNotification[];
  purchases: SbpsPurchase[];
};

export const orderKey = (merchantId: string, serviceId: string, orderId: string): string =>
  `${merchantId}:${serviceId}:${orderId}`;

export const seedSbps = (merchantId: string, serviceId: string): SbpsState => ({
  customers: demoCustomerCards.map((c) => ({
    merchantId,
    serviceId,
    custCode: c.custCode,
    card: { number: c.number, expiration: c.expiration, brand: cardBrand(c.number) },
    resrv: ['', '', ''],
    createdAt: 0,
    updatedAt: 0,
  })),
  tokens: [],
  transactions: [],
  orders: {},
  notifications: [],
  purchases: [],
});

export const sbpsStore = (
  dir: string,
  now: () => number,
  merchantId: string,
  serviceId: string,
): JsonStore<SbpsState> =>
  jsonStore(
    dir,
    'sbps',
    () => seedSbps(merchantId, serviceId),
    (s) => {
      // Spent tokens and abandoned purchase pages are of no use after a day.
      const cutoff = now() - 24 * 3600_000;
      s.tokens = s.tokens.filter((t) => t.expiresAt > cutoff);
      s.purchases = s.purchases.filter((p) => p.createdAt > cutoff);
      // The notification log is for looking at, not for deciding: the last thousand will do.
      if (s.notifications.length > 1000) s.notifications = s.notifications.slice(-1000);
    },
  );

export const publicCard = (
  c: SbpsCard,
): { brand: CardBrand; masked: string; expiration: string } => ({
  brand: c.brand,
  masked: maskCard(c.number),
  expiration: c.expiration,
});
