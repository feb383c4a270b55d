import { randomBytes } from 'node:crypto';
import { numericId } from '../shared/http';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { jstStamp } from './sbps.codec';
import { cardOutcome, ERR, maskCard, type SbpsMerchant } from './sbps.constants';
import {
  orderKey,
  type SbpsCard,
  type SbpsState,
  type SbpsTransaction,
  type SbpsTxStatus,
} from './sbps.state';

/** What every part of the SBPS emulator shares. */
export type SbpsContext = {
  rt: Runtime;
  store: JsonStore<SbpsState>;
  merchant: SbpsMerchant;
};

/** The JST month `YYYYMM` a card must not be before. */
export const currentMonth = (rt: Runtime): string => jstStamp(rt.now()).slice(0, 6);

/** A card whose expiry month has passed is refused like a wrong number (10127000). */
export const expired = (rt: Runtime, expiration: string): boolean => expiration < currentMonth(rt);

const newTrackingId = (s: SbpsState): string => {
  for (;;) {
    const id = numericId(14);
    if (!s.transactions.some((t) => t.trackingId === id)) return id;
  }
};

export const newSpsTransactionId = (): string => randomBytes(16).toString('hex').toUpperCase();

/** The transaction that already holds this order id, if any (declined attempts hold none). */
export function orderHolder(
  ctx: SbpsContext,
  merchantId: string,
  serviceId: string,
  orderId: string,
): SbpsTransaction | undefined {
  const tracking = ctx.store.data.orders[orderKey(merchantId, serviceId, orderId)];
  return tracking ? ctx.store.data.transactions.find((t) => t.trackingId === tracking) : undefined;
}

export type ChargeInput = {
  merchantId: string;
  serviceId: string;
  orderId: string;
  custCode: string;
  itemId: string;
  itemName: string;
  amount: number;
  tax: number;
  card: SbpsCard;
  channel: 'api' | 'link';
  /** `sold` when the charge is authorised and sold at once (the hosted page's service_type 0). */
  settle: Extract<SbpsTxStatus, 'authorised' | 'sold'>;
};

/**
 * Charges a card by the test cards' rules and records the attempt. A successful charge takes the
 * order id for good; a declined one is recorded (the control counts attempts per order id) but
 * leaves the order id free, so the merchant may try again with it once the card is fixed.
 */
export function charge(ctx: SbpsContext, input: ChargeInput): SbpsTransaction {
  const s = ctx.store.data;
  const outcome = expired(ctx.rt, input.card.expiration) ? 'wrong' : cardOutcome(input.card.number);
  const t = ctx.rt.now();
  const tx: SbpsTransaction = {
    trackingId: newTrackingId(s),
    spsTransactionId: newSpsTransactionId(),
    merchantId: input.merchantId,
    serviceId: input.serviceId,
    orderId: input.orderId,
    custCode: input.custCode,
    itemId: input.itemId,
    itemName: input.itemName,
    amount: input.amount,
    tax: input.tax,
    status: outcome === 'ok' ? input.settle : 'declined',
    channel: input.channel,
    card: {
      brand: input.card.brand,
      masked: maskCard(input.card.number),
      expiration: input.card.expiration,
    },
    recognizedNo: outcome === 'ok' ? numericId(7) : '',
    errCode: outcome === 'ok' ? '' : outcome === 'declined' ? ERR.declined : ERR.wrongCard,
    createdAt: t,
    updatedAt: t,
  };
  s.transactions.push(tx);
  if (outcome === 'ok')
    s.orders[orderKey(input.merchantId, input.serviceId, input.orderId)] = tx.trackingId;
  ctx.store.save();
  return tx;
}

/** Stores (or replaces) a customer's card, as register/update and `cust_manage_flg=1` do. */
export function saveCustomerCard(
  ctx: SbpsContext,
  merchantId: string,
  serviceId: string,
  custCode: string,
  card: SbpsCard,
  resrv?: [string, string, string],
): void {
  const s = ctx.store.data;
  const t = ctx.rt.now();
  const existing = s.customers.find(
    (c) => c.merchantId === merchantId && c.serviceId === serviceId && c.custCode === custCode,
  );
  if (existing) {
    existing.card = card;
    if (resrv) existing.resrv = resrv;
    existing.updatedAt = t;
  } else
    s.customers.push({
      merchantId,
      serviceId,
      custCode,
      card,
      resrv: resrv ?? ['', '', ''],
      createdAt: t,
      updatedAt: t,
    });
  ctx.store.save();
}

export const findCustomer = (
  ctx: SbpsContext,
  merchantId: string,
  serviceId: string,
  custCode: string,
) =>
  ctx.store.data.customers.find(
    (c) => c.merchantId === merchantId && c.serviceId === serviceId && c.custCode === custCode,
  );
