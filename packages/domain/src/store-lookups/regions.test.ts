import { describe, expect, it } from 'vitest';
import { administrativeAreas, postalDigits, postalShown } from './regions';
import { categoryMatches, postalCodeParams, prefecturesQuery } from './schemas';

describe('postal codes as typed', () => {
  it.each([
    ['1500002', '1500002'],
    ['150-0002', '1500002'],
    [' 060-0001 ', '0600001'],
    ['１５０－０００２', '1500002'],
    ['150ー0002', '1500002'],
    ['150-00002', null],
    ['15-00002', null],
    ['150 0002', null],
    ['abc-defg', null],
    ['', null],
  ])('%j → %j', (input, digits) => {
    expect(postalDigits(input)).toBe(digits);
    expect(postalCodeParams.safeParse({ code: input }).success).toBe(digits !== null);
  });

  it('shows 7 digits as Japan Post writes them', () => {
    expect(postalShown('0600001')).toBe('060-0001');
  });

  it('a malformed code says so in Japanese', () => {
    const r = postalCodeParams.safeParse({ code: '12-34' });
    expect(r.error?.issues[0]?.message).toBe(
      '郵便番号は7桁の数字（例: 150-0002）で入力してください。',
    );
  });
});

describe('administrative areas', () => {
  it('JP: the 47 prefectures in JIS code order', () => {
    const jp = administrativeAreas('JP');
    expect(jp).toHaveLength(47);
    expect(jp.map((a) => a.code)).toEqual(
      Array.from({ length: 47 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
    expect(jp[0]).toEqual({ region_code: 'JP', code: '01', name: '北海道' });
    expect(jp[12]).toEqual({ region_code: 'JP', code: '13', name: '東京都' });
    expect(jp[46]).toEqual({ region_code: 'JP', code: '47', name: '沖縄県' });
    expect(new Set(jp.map((a) => a.name)).size).toBe(47);
  });

  it('VN: 34 provinces, codes unique and ascending', () => {
    const vn = administrativeAreas('VN');
    expect(vn).toHaveLength(34);
    const codes = vn.map((a) => Number(a.code));
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    expect(new Set(codes).size).toBe(34);
    expect(vn.map((a) => a.name)).toEqual(expect.arrayContaining(['Hà Nội', 'Hồ Chí Minh']));
  });

  it('both when no region is named, JP first', () => {
    const all = administrativeAreas();
    expect(all).toHaveLength(81);
    expect(all[47]?.region_code).toBe('VN');
  });

  it.each([
    ['jp', 'JP'],
    [' vn ', 'VN'],
    [undefined, undefined],
  ])('region_code %j → %j', (input, region) => {
    expect(prefecturesQuery.parse({ user_id: '1', region_code: input }).region_code).toBe(region);
  });

  it('refuses another region', () => {
    expect(prefecturesQuery.safeParse({ user_id: '1', region_code: 'US' }).success).toBe(false);
  });
});

describe('category search', () => {
  it.each([
    ['カフェ', undefined, true],
    ['カフェ', '', true],
    ['カフェ', 'カフェ', true],
    ['カフェ', 'ｶﾌｪ', true],
    ['Cafe', 'CAFE', true],
    ['ベーカリー', 'カフェ', false],
  ])('%j holds %j: %j', (name, search, hit) => {
    expect(categoryMatches(name, search)).toBe(hit);
  });
});
