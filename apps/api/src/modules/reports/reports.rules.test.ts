import { describe, expect, it } from 'vitest';
import { splitRange } from './reports.repo';
import { combineKeyword } from './reports.service';

describe('splitRange: whole months from metric_months, edge days from metric_days', () => {
  it.each([
    ['2025-01-01', '2025-03-31', undefined, { from: '2025-01', to: '2025-03' }, []],
    [
      '2025-01-15',
      '2025-03-10',
      undefined,
      { from: '2025-02', to: '2025-02' },
      [
        { start: '2025-01-15', end: '2025-01-31' },
        { start: '2025-03-01', end: '2025-03-10' },
      ],
    ],
    ['2025-06-10', '2025-06-20', undefined, null, [{ start: '2025-06-10', end: '2025-06-20' }]],
    ['2025-06-01', '2025-06-30', undefined, { from: '2025-06', to: '2025-06' }, []],
    ['2024-02-01', '2024-02-29', undefined, { from: '2024-02', to: '2024-02' }, []],
    // reaching today: the current month's row holds every day it can have
    ['2024-03-01', '2026-03-16', '2026-03-16', { from: '2024-03', to: '2026-03' }, []],
    [
      '2024-03-01',
      '2026-03-16',
      undefined,
      { from: '2024-03', to: '2026-02' },
      [{ start: '2026-03-01', end: '2026-03-16' }],
    ],
    ['2026-03-05', '2026-03-16', '2026-03-16', null, [{ start: '2026-03-05', end: '2026-03-16' }]],
  ])('%s..%s (today %s)', (start, end, today, full, edges) => {
    const s = splitRange(start, end, today);
    expect(s.full).toEqual(full);
    expect(s.edges).toEqual(edges);
  });
});

describe('combineKeyword (ADR 0036)', () => {
  it.each([
    [[{ value: 10, threshold: null }], { kind: 'value', n: 10 }],
    [
      [
        { value: 10, threshold: null },
        { value: 5, threshold: null },
      ],
      { kind: 'value', n: 15 },
    ],
    [
      [
        { value: 200, threshold: null },
        { value: null, threshold: 15 },
      ],
      { kind: 'threshold', n: 215 },
    ],
    [[{ value: null, threshold: 15 }], { kind: 'threshold', n: 15 }],
  ])('%j → %j', (months, out) => {
    expect(combineKeyword(months)).toEqual(out);
  });
});
