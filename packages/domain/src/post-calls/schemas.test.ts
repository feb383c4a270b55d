import { describe, expect, it } from 'vitest';
import { formatPostDate, parsePostDate, postListQuery } from './schemas';

describe('post form dates, in Tokyo (UTC+9 all year)', () => {
  it.each([
    ['2026-11-24 09:00:00', '2026-11-24T00:00:00.000Z'],
    ['2026-01-01 00:00:00', '2025-12-31T15:00:00.000Z'],
    ['2026-06-30 23:59:59', '2026-06-30T14:59:59.000Z'],
  ])('%s is %s', (text, instant) => {
    expect(parsePostDate(text)?.toISOString()).toBe(instant);
    expect(formatPostDate(new Date(instant))).toBe(text);
  });

  it.each(['2026-02-30 10:00:00', '2026-11-24 24:00:00', '2026/11/24 10:00:00', '2026-11-24', ''])(
    'refuses %j',
    (text) => expect(parsePostDate(text)).toBeNull(),
  );
});

describe('post list query', () => {
  it('defaults to 5 a page, takes 5/10/25/50 only, and one store or several', () => {
    expect(postListQuery.parse({ user_id: '3' })).toMatchObject({
      user_id: [3],
      limit: 5,
      page: 1,
    });
    expect(postListQuery.parse({ user_id: '3, 4', limit: '25' }).user_id).toEqual([3, 4]);
    expect(postListQuery.safeParse({ user_id: '3', limit: '20' }).success).toBe(false);
    expect(postListQuery.safeParse({ user_id: 'x' }).success).toBe(false);
  });
});
