import type { ChannelRegistry, EditsLocation } from '../../channels/channel';
import type { Queue } from '../../jobs/engine';
import type { Clock } from '../../lib/clock';
import type { AppError } from '../../lib/errors';
import type { AuditLog } from '../audit/audit.repo';
import { GOOGLE } from './store-info.copy';
import type { StoreInfoRepo } from './store-info.repo';

/** What the store-info parts run on (store-info.service.ts puts them together). */
export type StoreInfoDeps = {
  repo: StoreInfoRepo;
  registry: ChannelRegistry;
  queue: Queue;
  clock: Clock;
  log: { warn: (obj: object, msg: string) => void };
  notConnected: () => AppError;
  /** Each save is recorded with the copy's fields before and after (ADR 0047). */
  audit?: AuditLog;
};

export type StoreInfoContext = StoreInfoDeps & {
  now: () => Date;
  /** Google's listing edits (the channel's editLocation capability). */
  google: () => EditsLocation;
};

export function createStoreInfoContext(deps: StoreInfoDeps): StoreInfoContext {
  const { registry, clock } = deps;
  return {
    ...deps,
    now: () => clock.now(),
    google: () => registry.require(GOOGLE, 'editLocation'),
  };
}
