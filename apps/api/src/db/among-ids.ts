import { PostgresAdapter, sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from './kysely';

/** Whether `db` runs on PostgreSQL (the SQLite default otherwise). */
export const isPostgres = (db: Db): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * `column` among `ids`, for an agency's thousand stores or a report's ten thousand: on PostgreSQL
 * one array parameter (`= any($1::int[])`), parsed and planned once, where an IN list of that
 * many parameters was most of the call (issue 26 P3); on SQLite an IN list, which it seeks id by
 * id. `ids` is not empty (an empty IN list is not SQL): callers answer nothing first.
 */
export const amongIds = (
  postgres: boolean,
  column: string,
  ids: readonly number[],
): Expression<SqlBool> =>
  postgres
    ? sql<SqlBool>`${sql.ref(column)} = any(${[...ids]}::int[])`
    : sql<SqlBool>`${sql.ref(column)} in (${sql.join([...ids])})`;
