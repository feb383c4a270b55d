import { randomUUID } from 'node:crypto';
import { ChannelError, credentialHandle, type LocationPatch } from '../../channels/channel';
import { iso } from '../../lib/clock';
import type { LocationEdit } from './store-info.repo';
import type { StoreInfoContext } from './store-info.context';
import { GOOGLE, LIVE, SEND_LEASE_MS, refusalOf, type SendOutcome } from './store-info.copy';
import { checkGoogleVersion } from './store-info.read';

/** A sender that finds the lease taken tries again after this. */
const LEASE_WAIT_MS = 2000;
const RATE_WAIT_MS = 60_000;

/**
 * Sends the store's oldest queued edit (one job per save; whichever runs sends the oldest, so
 * edits reach Google in the order they were saved). One sender a store at a time.
 */
export async function sendNext(x: StoreInfoContext, storeId: number): Promise<SendOutcome> {
  const { repo, now } = x;
  const edit = await repo.oldestQueued(storeId);
  if (!edit) return { state: 'idle' };
  const conn = await repo.googleConnection(storeId);
  if (!conn?.entity_id || !LIVE.includes(conn.status))
    return { state: 'stopped', reason: 'not_connected' };
  if (conn.entity_id !== edit.location_id) {
    await repo.dropStale(storeId, conn.entity_id, iso(now()));
    return sendNext(x, storeId);
  }
  const token = randomUUID();
  const t0 = now().getTime();
  if (
    !(await repo.takeLease(storeId, token, iso(now()), new Date(t0 + SEND_LEASE_MS).toISOString()))
  )
    return { state: 'wait', until: new Date(t0 + LEASE_WAIT_MS), reason: 'another sender' };
  try {
    // Under the lease: the oldest may have been sent by the sender before us.
    const next = await repo.oldestQueued(storeId);
    if (!next) return { state: 'idle' };
    return await send(x, storeId, next);
  } finally {
    await repo.releaseLease(storeId, token);
  }
}

async function send(
  x: StoreInfoContext,
  storeId: number,
  edit: LocationEdit,
): Promise<SendOutcome> {
  const { repo, now, google } = x;
  await repo.countAttempt(edit.id);
  try {
    await google().editLocation(
      credentialHandle(storeId, GOOGLE),
      JSON.parse(edit.patch) as LocationPatch,
      edit.update_mask,
    );
  } catch (err) {
    if (!(err instanceof ChannelError)) throw err;
    switch (err.kind) {
      case 'invalid': {
        const refusal = refusalOf(err);
        x.log.warn(
          { store: storeId, edit: edit.id, detail: err.message },
          'Google refused a listing edit',
        );
        await repo.settle(edit.id, 'refused', iso(now()), JSON.stringify(refusal));
        return { state: 'refused', editId: edit.id };
      }
      case 'rate_limited':
      case 'quota':
        return {
          state: 'wait',
          until: new Date(now().getTime() + Math.max(1000, err.retryAfterMs ?? RATE_WAIT_MS)),
          reason: err.kind,
        };
      case 'reauth':
        // The grant access turned the Google row to error; the edit waits for a new grant.
        x.log.warn({ store: storeId, edit: edit.id }, 'listing edits wait for Google again');
        return { state: 'stopped', reason: 'reauth' };
      default:
        // transient or outcome unknown: a patch replaces whole fields, so it is sent again.
        throw err;
    }
  }
  await repo.settle(edit.id, 'sent', iso(now()), null);
  await checkGoogleVersion(x, storeId);
  return { state: 'sent', editId: edit.id };
}
