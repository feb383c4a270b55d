import { describe, expect, it } from 'vitest';
import { ja } from '@tenpo/domain';
import { passwordProblem, type PasswordContext } from './password-policy';

const shop: PasswordContext = {
  email: 'shop@tenpo.example',
  name: '青木 翼',
  companyName: 'ACME',
  storeName: 'Aoki Kitchen',
};

describe('passwordProblem (ADR 0065)', () => {
  it.each([
    // The examples, and the list's neighbours.
    ['password', ja.passwordTooCommon],
    ['12345678', ja.passwordTooCommon],
    ['PassWord1', ja.passwordTooCommon],
    ['iloveyou', ja.passwordTooCommon],
    ['qwertyuiop', ja.passwordTooCommon],
    // Repeats and runs the list does not hold.
    ['aaaaaaaa', ja.passwordTooCommon],
    ['abababab', ja.passwordTooCommon],
    ['abcabcabc', ja.passwordTooCommon],
    ['abcdefghij', ja.passwordTooCommon],
    ['98765432', ja.passwordTooCommon],
    // The account's own words with little else.
    ['shop@tenpo.example', ja.passwordPersonal],
    ['SHOP@TENPO.EXAMPLE', ja.passwordPersonal],
    ['shop1234', ja.passwordPersonal],
    ['青木翼青木翼1', ja.passwordPersonal],
    ['acme-2024', ja.passwordPersonal],
    ['aokikitchen1', ja.passwordPersonal],
    // Taken out, what is left is itself common.
    ['shoppassword', ja.passwordTooCommon],
  ])('refuses %s', (password, problem) => {
    expect(passwordProblem(password, shop)).toBe(problem);
  });

  it.each([
    'tenpo-demo-1',
    'new-password-1',
    'hanami-kouen-22',
    'workshop-2024!',
    'acme-pass-123',
    'わたしの秘密の合言葉',
    'correct horse battery staple',
  ])('accepts %s', (password) => {
    expect(passwordProblem(password, shop)).toBeNull();
  });

  it('judges without any context too', () => {
    expect(passwordProblem('password', {})).toBe(ja.passwordTooCommon);
    expect(passwordProblem('kiso-river-fog', {})).toBeNull();
  });
});
