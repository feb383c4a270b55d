import type { DbHandle } from '../db/kysely';
import type { Clock } from '../lib/clock';
import type { EngineOptions, Queue } from './engine';
import { createPgBossQueue } from './pg-boss-driver';
import { createTableQueue } from './table-driver';

export * from './engine';
export { createTableQueue } from './table-driver';
export { createPgBossQueue, pgBossSchemaOf } from './pg-boss-driver';

export type JobDriver = 'table' | 'pg-boss';

/**
 * The job engine for this database (ADR 0020): the embedded table driver, or pg-boss when
 * configured on PostgreSQL (ADR 0023).
 */
export async function createQueue(
  handle: DbHandle,
  clock: Clock,
  driver: JobDriver,
  options: EngineOptions,
): Promise<Queue> {
  if (driver === 'pg-boss') return createPgBossQueue(handle, clock, options);
  return Promise.resolve(createTableQueue(handle.db, handle.dialect, clock, options));
}
