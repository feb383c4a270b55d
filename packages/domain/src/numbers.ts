/**
 * A number as Japanese screens write it, `Intl.NumberFormat('ja-JP')`'s default: digits grouped
 * in threes with commas (12,345). Integers, which is what every count is, are grouped here;
 * anything else goes to Intl, built on first use.
 *
 * Why not Intl for everything: building the first `Intl.NumberFormat` loads the locale's data,
 * about 30 ms on a mid-range phone, and a formatter built at module level did it while the
 * dashboard's code was still starting (ADR 0079's addendum). `numbers.test.ts` holds this equal
 * to Intl over a range of integers.
 */
let intl: Intl.NumberFormat | undefined;

export const formatThousands = (n: number): string => {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) {
    intl ??= new Intl.NumberFormat('ja-JP');
    return intl.format(n);
  }
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const part = digits.slice(Math.max(0, end - 3), end);
    out = out ? `${part},${out}` : part;
  }
  return n < 0 ? `-${out}` : out;
};
