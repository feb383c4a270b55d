import { sql, type Expression, type SelectQueryBuilder } from 'kysely';
import type { Seek } from './keyset';

/**
 * A list's sort for keyset paging (ADR 0098): its keys, the last one unique (the id), all in one
 * direction, so one index in the same column order serves the seek both ways.
 */
export type KeysetOrder = {
  keys: readonly Expression<unknown>[];
  direction: 'asc' | 'desc';
};

/**
 * Reads one page of `query` as `seek` says (lib/keyset.ts): skipping rows from the start or,
 * backwards, from the end; or next to a row's keys, skipping nothing. With a sort key before the
 * id, "next to (k, id)" is two seeks of the index, each a range it reads from its start: the
 * rows that tie on k past the id (`k = x and id > y`), then, if the page is not full, those past
 * k (`k > x`). A row comparison `(k, id) > (x, y)` would be one statement, but SQLite seeks it by
 * its first column only when the id is the rowid, and not at all when k is an expression (the
 * list's name): every tie, or every row before the page, was read. The rows come back in the
 * list's order.
 */
export async function seekRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: KeysetOrder,
  seek: Seek,
): Promise<O[]> {
  const backward = seek.from === 'end' || seek.from === 'before';
  const asc = order.direction === 'asc';
  const direction = asc !== backward ? 'asc' : 'desc';
  const sorted = (q: SelectQueryBuilder<DB, TB, O>, limit: number) => {
    let out = q;
    for (const k of order.keys) out = out.orderBy(k, direction);
    return out.limit(limit);
  };
  let rows: O[];
  if (seek.from === 'start' || seek.from === 'end') {
    rows = await sorted(query, seek.limit).offset(seek.offset).execute();
  } else {
    const op = sql.raw(direction === 'asc' ? '>' : '<');
    const [first, second] = order.keys;
    const [x, y] = seek.key;
    if (first === undefined || x === undefined) throw new Error('a keyset order has keys');
    if (second === undefined || y === undefined) {
      rows = await sorted(query.where(sql<boolean>`${first} ${op} ${x}`), seek.limit).execute();
    } else {
      // The ties are in id order alone (k is one value): SQLite sorts them otherwise.
      rows = await query
        .where(sql<boolean>`${first} = ${x}`)
        .where(sql<boolean>`${second} ${op} ${y}`)
        .orderBy(second, direction)
        .limit(seek.limit)
        .execute();
      if (rows.length < seek.limit)
        rows = rows.concat(
          await sorted(
            query.where(sql<boolean>`${first} ${op} ${x}`),
            seek.limit - rows.length,
          ).execute(),
        );
    }
  }
  return backward ? rows.reverse() : rows;
}
