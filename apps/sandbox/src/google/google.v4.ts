import type { FastifyInstance } from 'fastify';
import { PathRouter } from '../shared/http';
import { mimeOf, probeMedia } from '../shared/media';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { unknownPath } from './google.errors';
import type { GoogleState } from './google.state';
import type { V4Ctx } from './google.v4-common';
import { registerV4Media } from './google.v4-media';
import { registerV4Posts } from './google.v4-posts';
import { registerV4Reviews } from './google.v4-reviews';
import { registerReviewsControl } from './google.v4-reviews-control';

export { mediaViolations, REJECT_MARKER } from './google.v4-common';

export function registerGoogleV4(
  app: FastifyInstance,
  rt: Runtime,
  store: JsonStore<GoogleState>,
): void {
  const s = () => store.data;
  const router = new PathRouter();
  const ctx: V4Ctx = { rt, store };
  registerV4Posts(router, ctx);
  registerV4Media(router, ctx);
  registerV4Reviews(router, ctx);
  registerReviewsControl(app, rt, store);

  app.register(async (scope) => router.mount(scope, (_m, p) => unknownPath(p)), {
    prefix: '/google/mybusiness',
  });

  // googleUrl of uploaded media: the bytes, as Google's image host serves them.
  app.get<{ Params: { key: string } }>('/google/lh3/:key', async (req, reply) => {
    const m = s().media.find((x) => x.key === req.params.key);
    // Media of a local post are kept under their post's key (p{postId}-{i}).
    const blob =
      m?.blob ?? (/^p\d+-\d+$/.test(req.params.key) ? `google-media-${req.params.key}` : undefined);
    const bytes = blob ? rt.blobs.get(blob) : undefined;
    if (!bytes) return reply.code(404).type('text/plain').send('Not Found');
    return reply.type(mimeOf(probeMedia(bytes).format)).send(bytes);
  });
}
