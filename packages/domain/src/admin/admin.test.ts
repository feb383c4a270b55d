import { describe, expect, it } from 'vitest';
import { adminJa } from '../messages/admin';
import {
  adminAgencyCreateRequest,
  adminAgencyUpdateRequest,
  adminListQuery,
  adminStoreCreateRequest,
  adminStoreUpdateRequest,
  paymentMethodOf,
  prefixField,
} from './schemas';

describe('prefixField (one DNS label)', () => {
  it.each([
    ['acme', 'acme'],
    ['ACME', 'acme'],
    [' shop-1 ', 'shop-1'],
    ['a', 'a'],
    ['0', '0'],
    ['x'.repeat(63), 'x'.repeat(63)],
  ])('%j → %j', (input, want) => {
    expect(prefixField().parse(input)).toBe(want);
  });

  it.each([
    ['', 'サブドメイン（プレフィックス） を入力してください。'],
    ['-acme', adminJa.prefixFormat],
    ['acme-', adminJa.prefixFormat],
    ['ac_me', adminJa.prefixFormat],
    ['ac.me', adminJa.prefixFormat],
    ['アクメ', adminJa.prefixFormat],
    ['x'.repeat(64), adminJa.prefixFormat],
    ['www', adminJa.prefixReserved('www')],
    ['API', adminJa.prefixReserved('api')],
  ])('%j is refused: %s', (input, message) => {
    const r = prefixField().safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual([message]);
  });
});

const agency = {
  email: 'Owner@Acme.example',
  name: '山田 太郎',
  company_name: '株式会社ACME',
  prefix: 'acme',
  title: 'ACME 店舗管理',
  password: 'secret-pass-1',
};

describe('adminAgencyCreateRequest', () => {
  it('takes a form (text values) and folds e-mail and prefix', () => {
    expect(adminAgencyCreateRequest.parse({ ...agency, status: '0', phone: '' })).toEqual({
      ...agency,
      email: 'owner@acme.example',
      phone: null,
      agent_code: '0000',
      status: 0,
    });
  });

  it.each([
    [{ password: '' }, 'password', 'パスワード を入力してください。'],
    [{ password: 'short' }, 'password', 'パスワードは8文字以上で入力してください。'],
    [{ email: 'nope' }, 'email', 'メールアドレスが正しくありません。'],
    [{ title: ' ' }, 'title', 'アプリ名（タイトル） を入力してください。'],
    [{ status: '2' }, 'status', 'ステータスの値が正しくありません。'],
    [{ prefix: 'bad prefix' }, 'prefix', adminJa.prefixFormat],
  ])('%o → %s: %s', (patch, field, message) => {
    const r = adminAgencyCreateRequest.safeParse({ ...agency, ...patch });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[field, message]]);
  });

  it('an update keeps the password when it is left blank', () => {
    expect(adminAgencyUpdateRequest.parse({ ...agency, password: '' }).password).toBeNull();
    expect(adminAgencyUpdateRequest.parse({ ...agency, password: undefined }).password).toBeNull();
    expect(adminAgencyUpdateRequest.safeParse({ ...agency, password: 'short' }).success).toBe(
      false,
    );
  });
});

const store = {
  email: 'new@store.example',
  name: '佐藤 花子',
  company_name: '株式会社サトウ',
  store_name: 'サトウ 本店',
  password: 'secret-pass-1',
};

describe('adminStoreCreateRequest', () => {
  it.each([
    [{}, { role: 1, status: 1, agency_id: null, agent_code: '0000' }],
    [
      { role: '0', agency_id: '12' },
      { role: 0, agency_id: 12 },
    ],
    [{ agency_id: '' }, { agency_id: null }],
    [{ agency_id: null }, { agency_id: null }],
  ])('%o → %o', (patch, want) => {
    expect(adminStoreCreateRequest.parse({ ...store, ...patch })).toMatchObject(want);
  });

  it.each([
    [{ role: 11 }, 'role', 'プランの値が正しくありません。'],
    [{ role: 99 }, 'role', 'プランの値が正しくありません。'],
    [{ agency_id: 'x' }, 'agency_id', '代理店の値が正しくありません。'],
    [{ phone: '03-1234' }, 'phone', '数字のみを入力してください'],
    [{ store_name: '' }, 'store_name', '店舗名 を入力してください。'],
  ])('%o → %s: %s', (patch, field, message) => {
    const r = adminStoreCreateRequest.safeParse({ ...store, ...patch });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([[field, message]]);
  });

  it('an update needs no password', () => {
    expect(adminStoreUpdateRequest.parse({ ...store, password: '' }).password).toBeNull();
  });
});

describe('adminListQuery', () => {
  it.each([
    [{}, { page: 1, per_page: 10 }],
    [
      { page: '3', per_page: '25', search: ' acme ' },
      { page: 3, per_page: 25, search: 'acme' },
    ],
  ])('%o → %o', (q, want) => {
    expect(adminListQuery.parse(q)).toEqual(want);
  });
  it.each([[{ page: '0' }], [{ per_page: '101' }], [{ page: 'x' }]])('%o is refused', (q) => {
    expect(adminListQuery.safeParse(q).success).toBe(false);
  });
});

describe('paymentMethodOf', () => {
  it.each([
    [null, 'credit_card'],
    ['', 'credit_card'],
    ['0000', 'credit_card'],
    ['1001', 'agency_invoice'],
  ] as const)('%j → %s', (code, want) => {
    expect(paymentMethodOf(code)).toBe(want);
  });
});
