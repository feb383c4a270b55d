import { describe, expect, it } from 'vitest';
import { newOrderId, nextBillingDay } from './payments.rules';

describe('nextBillingDay', () => {
  it.each([
    ['2026-01-15', 15, '2026-02-15'],
    ['2026-01-31', 31, '2026-02-28'],
    ['2028-01-31', 31, '2028-02-29'],
    // After a short month the billing day comes back.
    ['2026-02-28', 31, '2026-03-31'],
    ['2026-04-30', 31, '2026-05-31'],
    ['2026-12-10', 10, '2027-01-10'],
    ['2026-12-31', 31, '2027-01-31'],
  ])('%s on day %i → %s', (day, billingDay, want) => {
    expect(nextBillingDay(day, billingDay)).toBe(want);
  });
});

describe('newOrderId', () => {
  it('is 32 random [A-Za-z0-9]', () => {
    const ids = Array.from({ length: 200 }, newOrderId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
