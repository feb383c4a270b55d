/**
 * Parameters one statement may bind on both databases: SQLite's limit is 32,766 (better-sqlite3's
 * build), PostgreSQL's 65,535. A multi-row insert of `rows` with `columns` columns each goes in
 * as few statements as that allows (one for an agency's 1,000 stores × 4 channels).
 */
export const PARAMETERS_PER_STATEMENT = 30_000;

/** `rows` cut into the fewest runs that each bind at most PARAMETERS_PER_STATEMENT values. */
export function statementBatches<T extends object>(rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const size = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
