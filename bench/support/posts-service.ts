import type { FastifyInstance } from 'fastify';
import { createChannels } from '../../apps/api/src/channels';
import type { Config } from '../../apps/api/src/config';
import type { Db } from '../../apps/api/src/db/kysely';
import { systemClock } from '../../apps/api/src/lib/clock';
import { createPostsRepo } from '../../apps/api/src/modules/posts/posts.repo';
import { createPostsService } from '../../apps/api/src/modules/posts/posts.service';
import { createPublisherRepo } from '../../apps/api/src/modules/publisher/publisher.repo';
import { createPublisherService } from '../../apps/api/src/modules/publisher/publisher.service';

/**
 * The posts service as POST /api/posts uses it, on the app's queue and storage: the benches
 * make their posts with it before the timed part (delivery.ts, crash-once.ts).
 */
export function postsServiceOf(app: FastifyInstance, config: Config, db: Db) {
  const publishers = createPublisherService({
    repo: createPublisherRepo(db),
    channels: createChannels(config, systemClock),
    clock: systemClock,
    secretKey: config.secretKey,
    publicUrl: config.publicUrl,
    isAgencyPrefix: async () => false,
    log: { warn: () => undefined },
  });
  return createPostsService({
    repo: createPostsRepo(db),
    publishers,
    registry: publishers.registry,
    queue: app.queue,
    storage: app.storage,
    clock: systemClock,
    publicUrl: config.publicUrl,
  });
}
