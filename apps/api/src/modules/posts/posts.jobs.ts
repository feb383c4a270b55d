import type { JobHandler, Queue } from '../../jobs/engine';
import {
  createPostJobContext,
  limitersFor,
  POST_JOB_CONCURRENCY,
  PUBLISH_QUEUE,
  REMOVE_QUEUE,
  RESUME_QUEUE,
  type PostJobDeps,
  type TargetJob,
} from './posts.jobs.context';
import { publishTarget } from './posts.jobs.publish';
import { removeTarget } from './posts.jobs.remove';

export {
  accountKeyOf,
  jobOf,
  limitersFor,
  MAX_SENDS,
  POST_JOB_CONCURRENCY,
  PUBLISH_QUEUE,
  REMOVE_QUEUE,
  removeKeyOf,
  RESUME_QUEUE,
  retryKeyOf,
  REVIEW_FIRST_WAIT_MS,
  REVIEW_GIVE_UP_MS,
  reviewWaitMs,
  SETTLE_AFTER_MS,
  type PostJobDeps,
  type TargetJob,
} from './posts.jobs.context';

/**
 * Delivery (ADR 0026): one `post.publish` job per target, and a `post.remove` job at the
 * removal date. Each job acts on its own target only, so one channel's failure never touches
 * its siblings; every outcome is written to the target with the failure's class and lines.
 * The parts: posts.jobs.publish (send, settle, review), posts.jobs.outcome (what each outcome
 * writes) and posts.jobs.remove.
 */
export function registerPostJobs(queue: Queue, deps: PostJobDeps): void {
  const c = createPostJobContext(queue, deps);
  // The publish run, also registered on RESUME_QUEUE (below).
  const publishRun: JobHandler<TargetJob> = (p, ctx) => publishTarget(c, p, ctx);
  queue.work<TargetJob>(PUBLISH_QUEUE, publishRun, {
    concurrency: deps.concurrency ?? POST_JOB_CONCURRENCY,
    limiter: limitersFor('publish'),
  });
  // A part the provider is still preparing comes back here: the same run, outside the publish
  // limiters (its start was counted when it was first sent; a reel's looks must not spend
  // Instagram's 25 posts a day).
  queue.work<TargetJob>(RESUME_QUEUE, publishRun, {
    concurrency: deps.concurrency ?? POST_JOB_CONCURRENCY,
  });

  queue.work<TargetJob>(REMOVE_QUEUE, (p, ctx) => removeTarget(c, p, ctx), {
    concurrency: deps.concurrency ?? POST_JOB_CONCURRENCY,
    limiter: limitersFor('remove'),
  });
}
