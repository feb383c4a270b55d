import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { METRIC_FIELDS, multiStoreReportSchema, ok } from '@tenpo/domain';
import { serializerCompiler } from '../../lib/serializer';
import { multiStoreReportBytes, writeMultiStoreReport } from './reports.bytes';

// The multi-store report's byte writer (ADR 0097) against the app's serializer (ADR 0016) on the
// same route schema: the same bytes for every answer, and the same error for a wrong one.
const route = {
  schema: ok(z.object({ data: multiStoreReportSchema })),
  method: 'POST',
  url: '/api/report/multiple-store/adjustment-period',
  httpStatus: '200',
} as Parameters<typeof serializerCompiler>[0];
const bytes = multiStoreReportBytes(route) as unknown as (d: unknown) => Buffer;
const text = serializerCompiler(route) as (d: unknown) => string;

const figures = (seed: number): Record<string, number> =>
  Object.fromEntries([...METRIC_FIELDS, 'search_keywords'].map((f, i) => [f, seed * 31 + i * 7]));

const answer = (stores: Record<string, unknown>, notLinked: unknown[] = [], message?: string) => ({
  status_code: 200,
  ...(message === undefined ? {} : { message }),
  data: {
    data: { start_date: '2024-11-01', end_date: '2026-11-29', stores, not_linked: notLinked },
  },
});

const same = (data: unknown) => {
  // Written by the byte writer itself, not handed back to the app serializer.
  expect(writeMultiStoreReport(data)).not.toBeNull();
  const out = bytes(data);
  expect(Buffer.isBuffer(out)).toBe(true);
  expect(out.toString('utf8')).toBe(text(data));
};

describe('multiStoreReportBytes', () => {
  it.each([
    ['no store', answer({})],
    [
      'stores and the unlinked',
      answer({ 'カフェ・ミナト 渋谷店': figures(1), 'B (#3)': figures(2) }, [
        { id: 4, name: '品川店' },
        { id: 5, name: 'x' },
      ]),
    ],
    [
      'names JSON must escape',
      answer({ 'a"b\\c\n\u0001': figures(3), '😀 絵文字': figures(4), '\ud800 lone': figures(5) }),
    ],
    [
      'zero, negative zero, negative, large and fractional figures',
      answer({
        s: {
          ...figures(1),
          call_clicks: 0,
          website_clicks: -0,
          business_bookings: -42,
          business_conversations: 2 ** 53 + 2,
          business_food_orders: 1.5,
          search_keywords: 1e21,
        },
      }),
    ],
    [
      'extra keys, stripped',
      answer({ s: { ...figures(6), extra: 'x' } }, [{ id: 1, name: 'n', more: true }]),
    ],
    ['a message', answer({ s: figures(7) }, [], 'done')],
    [
      '__proto__ dropped, a null-prototype record',
      answer(
        Object.assign(Object.create(null) as Record<string, unknown>, {
          ['__proto__']: figures(8),
          t: figures(9),
        }),
      ),
    ],
  ])('writes the same bytes as the app serializer: %s', (_what, data) => same(data));

  it('writes a thousand stores as the app serializer does', () => {
    const stores: Record<string, unknown> = {};
    for (let i = 0; i < 1000; i++) stores[`ベンチ店 ${i}`] = figures(i * 7919);
    same(answer(stores, [{ id: 1, name: '未連携' }]));
  });

  it.each([
    ['a figure that is not a number', answer({ s: { ...figures(1), call_clicks: '3' } })],
    ['NaN', answer({ s: { ...figures(1), call_clicks: Number.NaN } })],
    ['a missing figure', answer({ s: { ...figures(1), call_clicks: undefined } })],
    ['an unlinked id that is not an integer', answer({}, [{ id: 1.5, name: 'x' }])],
    ['a record that is an array', answer([figures(1)] as unknown as Record<string, unknown>)],
  ])('leaves what it cannot vouch for to the app serializer (zod): %s', (_what, data) => {
    expect(writeMultiStoreReport(data)).toBeNull();
    expect(() => text(data)).toThrow();
    expect(() => bytes(data)).toThrow();
  });
});
