import { describe, expect, it } from 'vitest';
import { formatThousands } from './numbers';

describe('formatThousands', () => {
  const intl = new Intl.NumberFormat('ja-JP');

  it("writes integers exactly as Intl.NumberFormat('ja-JP') does", () => {
    const values = [0, 1, -1, 9, 10, 99, 100, 999, 1000, -1000, 1001, 12_345, 999_999, 1_000_000];
    for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n = n * 7 + 3) values.push(n, -n);
    values.push(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
    for (const n of values) expect(formatThousands(n), String(n)).toBe(intl.format(n));
  });

  it('leaves fractions, -0 and non-finite numbers to Intl', () => {
    for (const n of [1234.5678, -0.5, -0, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY])
      expect(formatThousands(n), String(n)).toBe(intl.format(n));
  });
});
