import type { Compilable, CompiledQuery } from 'kysely';
import { directReadOf, type Db } from './kysely';

type Slot = { arg: number } | { value: unknown };

/**
 * A hot query built and compiled by Kysely once, then run with fresh arguments. Kysely builds
 * and compiles a query on every call, which cost more than the database itself on an
 * authenticated read (ADR 0016); the SQL text stays the same, so the prepared statement is
 * reused too. `build` is called once, with stand-ins: each argument must become exactly one
 * bound parameter (a scalar compared or inserted, not a list or an identifier).
 *
 * On SQLite a read runs on its prepared statement directly while no transaction is open (the
 * same statement Kysely would run, without its connection hand-over: ADR 0024); otherwise, and
 * on PostgreSQL, it goes through `db.executeQuery`.
 */
export function compiledOnce<A extends unknown[], R>(
  db: Db,
  build: (...args: A) => Compilable<R>,
): (...args: A) => Promise<R[]> {
  let compiled: { template: CompiledQuery<R>; slots: Slot[] } | null = null;
  const compile = (arity: number) => {
    const standIns = Array.from({ length: arity }, (_, i) => Symbol(`arg${i}`));
    const template = build(...(standIns as unknown as A)).compile();
    const slots = template.parameters.map((p): Slot => {
      const arg = standIns.indexOf(p as symbol);
      return arg === -1 ? { value: p } : { arg };
    });
    for (let i = 0; i < arity; i++) {
      if (slots.filter((s) => 'arg' in s && s.arg === i).length !== 1)
        throw new Error(`compiledOnce: argument ${i} is not exactly one bound parameter`);
    }
    return { template, slots };
  };
  const direct = directReadOf(db);
  return async (...args: A) => {
    compiled ??= compile(args.length);
    const { template, slots } = compiled;
    const parameters = slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    const rows = direct?.(template.sql, parameters);
    if (rows) return rows as R[];
    const result = await db.executeQuery<R>({ ...template, parameters });
    return result.rows;
  };
}
