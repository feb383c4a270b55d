import type { PublisherKey } from '@tenpo/domain';
import { credentialHandle } from '../../channels/channel';
import type { JobContext } from '../../jobs/engine';
import type { PostJobContext, TargetJob } from './posts.jobs.context';
import { failed } from './posts.jobs.outcome';
import { liveIds, partsJson, partsOf, type TargetPart } from './posts.parts';

/** A removal whose post is still on its way waits this long between looks, for at most a day. */
const REMOVE_WAIT_MS = 60_000;
const REMOVE_GIVE_UP_MS = 24 * 60 * 60_000;

/**
 * One run of a target's removal job (at its removal date): every live part comes down, one
 * per run, each recorded as it goes; a target not live yet is looked at again later.
 */
export async function removeTarget(
  c: PostJobContext,
  p: TargetJob,
  ctx: JobContext,
): Promise<void> {
  const { repo, registry, now, stamp } = c;
  const t = await repo.target(p.targetId);
  if (!t || !t.remove_at) return;
  if (['scheduled', 'publishing', 'unknown'].includes(t.state)) {
    // Not live yet (a late or retried publish): look again soon, for at most a day.
    if (now().getTime() - new Date(t.remove_at).getTime() < REMOVE_GIVE_UP_MS)
      ctx.retryAt(new Date(now().getTime() + REMOVE_WAIT_MS), 'not published yet');
    return;
  }
  // Published, being removed, or failed with some parts live (a split post whose later
  // part was refused): every live part comes down, one per run, each recorded as it goes.
  if (!['published', 'removing', 'failed'].includes(t.state)) return;
  const parts = partsOf(t, 1);
  // A post whose edit Google refused is still there (REJECTED; ADR 0060): it comes down too.
  const live = parts.findIndex(
    (x) => (x.state === 'published' || !!x.edit_review) && x.state !== 'removed' && !!x.id,
  );
  if (live < 0) {
    if (t.state === 'removing')
      await repo.updateTarget(t.id, {
        state: 'removed',
        removed_at: stamp(),
        updated_at: stamp(),
      });
    return;
  }
  const key = t.publisher_key as PublisherKey;
  if (t.state !== 'failed')
    await repo.updateTarget(t.id, { state: 'removing', updated_at: stamp() });
  try {
    await registry
      .require(key, 'remove')
      .remove(credentialHandle(t.store_id, key), (parts[live] as TargetPart).id as string);
  } catch (err) {
    return failed(c, t, err, ctx, 'remove');
  }
  parts[live] = { ...(parts[live] as TargetPart), state: 'removed', removed_at: stamp() };
  if (liveIds(parts).length > 0) {
    await repo.updateTarget(t.id, { parts: partsJson(parts), updated_at: stamp() });
    ctx.retryAt(now(), 'next part');
  }
  await repo.updateTarget(t.id, {
    state: 'removed',
    parts: partsJson(parts),
    removed_at: stamp(),
    error_kind: null,
    error_lines: '[]',
    updated_at: stamp(),
  });
}
