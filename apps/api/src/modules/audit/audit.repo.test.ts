import { describe, expect, it } from 'vitest';
import { changed } from './audit.repo';

describe('changed', () => {
  it('keeps only the fields that differ, both sides', () => {
    expect(changed({ a: 1, b: 'x', c: [1] }, { a: 1, b: 'y', c: [1, 2] })).toEqual({
      before: { b: 'x', c: [1] },
      after: { b: 'y', c: [1, 2] },
    });
  });
  it('counts a key one side lacks as changed, and answers null when nothing changed', () => {
    expect(changed({ a: 1 }, { a: 1, b: 2 })).toEqual({ before: { b: null }, after: { b: 2 } });
    expect(changed({ a: { x: 1 } }, { a: { x: 1 } })).toBeNull();
  });
});
