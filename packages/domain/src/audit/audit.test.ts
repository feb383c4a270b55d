import { describe, expect, it } from 'vitest';
import { auditLogQuery, auditRowSchema, tokyoDayBounds } from './schemas';

describe('auditLogQuery', () => {
  it.each([
    { q: {}, ok: true, page: 1, per: 20 },
    { q: { page: '2', per_page: '50' }, ok: true, page: 2, per: 50 },
    { q: { per_page: '101' }, ok: false },
    { q: { entity: 'store', action: 'update' }, ok: true },
    { q: { entity: 'invoice' }, ok: false },
    { q: { action: 'explode' }, ok: false },
    { q: { entity: '', action: '', store_id: '' }, ok: true },
    { q: { store_id: 'abc' }, ok: false },
    { q: { from: '2026-11-01', to: '2026-11-30' }, ok: true },
    { q: { from: '2026-11-30', to: '2026-11-01' }, ok: false },
    { q: { from: '2026/11/01' }, ok: false },
    { q: { actor: 'shop@' }, ok: true },
  ])('$q → ok $ok', ({ q, ok, page, per }) => {
    const r = auditLogQuery.safeParse(q);
    expect(r.success).toBe(ok);
    if (r.success && page) expect([r.data.page, r.data.per_page]).toEqual([page, per]);
  });
});

describe('tokyoDayBounds', () => {
  it.each([
    { from: undefined, to: undefined, since: null, until: null },
    {
      from: '2026-11-26',
      to: '2026-11-26',
      since: '2026-11-25T15:00:00.000Z',
      until: '2026-11-26T15:00:00.000Z',
    },
    { from: '2026-01-01', to: undefined, since: '2025-12-31T15:00:00.000Z', until: null },
    { from: undefined, to: '2026-02-28', since: null, until: '2026-02-28T15:00:00.000Z' },
  ])('$from..$to', ({ from, to, since, until }) => {
    expect(tokyoDayBounds(from, to)).toEqual({ since, until });
  });
});

describe('auditRowSchema', () => {
  it('takes a row of the system (no actor, no store)', () => {
    const row = {
      id: 1,
      at: '2026-11-26T01:00:00.000Z',
      actor: null,
      store: null,
      entity: 'connection',
      entity_id: '3',
      action: 'update',
      summary: 'Google の接続がエラーになりました',
      before: { status: 1 },
      after: { status: 3 },
    };
    expect(auditRowSchema.parse(row)).toEqual(row);
  });
});
