import { randomInt } from 'node:crypto';
import { addMonths, dayInMonth, monthOfDay } from '@tenpo/domain';

/** The billing calendar and order ids (ADR 0050); days are Tokyo `YYYY-MM-DD`. */

const ORDER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 32 random [A-Za-z0-9] (spec 1 §7; SBPS takes up to 38). */
export const newOrderId = (): string =>
  Array.from({ length: 32 }, () => ORDER_ALPHABET[randomInt(ORDER_ALPHABET.length)]).join('');

/** `YYYY-MM-DD` of the month after `day`'s, on `billingDay` or the month's last day. */
export const nextBillingDay = (day: string, billingDay: number): string =>
  dayInMonth(addMonths(monthOfDay(day), 1), billingDay);
