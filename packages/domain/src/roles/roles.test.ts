import { describe, expect, it } from 'vitest';
import { paymentMenuVisible, paymentPanel, storeOptionDisabled, userStateCode } from './roles';

describe('paymentPanel', () => {
  it.each([
    [{ role: 1, in_trial: false, payment_fail: false }, null],
    [{ role: 0, in_trial: true, payment_fail: false }, null],
    [{ role: 0, in_trial: false, payment_fail: false }, 'pay-required'],
    [{ role: 0, in_trial: false, payment_fail: true }, 'confirm-mail'],
    [{ role: 1, in_trial: false, payment_fail: true }, 'confirm-mail'],
  ] as const)('%o → %s', (u, expected) => {
    expect(paymentPanel(u)).toBe(expected);
  });
});

describe('userStateCode', () => {
  it.each([
    [null, 99],
    [{ role: 0, in_trial: false, payment_fail: false }, 1],
    [{ role: 0, in_trial: false, payment_fail: true }, 2],
    [{ role: 0, in_trial: true, payment_fail: false }, 2],
    [{ role: 1, in_trial: false, payment_fail: false }, 2],
  ] as const)('%o → %s', (u, expected) => {
    expect(userStateCode(u)).toBe(expected);
  });
});

describe('paymentMenuVisible', () => {
  it.each([
    [null, true],
    ['', true],
    ['0000', true],
    ['1234', false],
    ['00000', false],
  ] as const)('%s → %s', (code, expected) => {
    expect(paymentMenuVisible(code)).toBe(expected);
  });
});

describe('storeOptionDisabled', () => {
  it.each([
    [{ status: 0, role: 1, in_trial: false }, 'single', true],
    [{ status: 0, role: 1, in_trial: false }, 'multi', true],
    [{ status: 1, role: 0, in_trial: false }, 'single', true],
    [{ status: 1, role: 0, in_trial: false }, 'multi', false],
    [{ status: 1, role: 0, in_trial: true }, 'single', false],
    [{ status: 1, role: 1, in_trial: false }, 'single', false],
  ] as const)('%o in %s → %s', (s, mode, expected) => {
    expect(storeOptionDisabled(s, mode)).toBe(expected);
  });
});
