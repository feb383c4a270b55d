import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../shared/runtime';
import { problem } from './x.errors';
import { registerXApi } from './x.api';
import { registerXOAuth } from './x.oauth';
import { seedX, xStore } from './x.state';

/** X: OAuth 2.0 with PKCE on x.com, and API v2 (posts, media upload, users/me) on api.x.com. */
export function registerX(app: FastifyInstance, rt: Runtime): void {
  const store = xStore(rt.dir, rt.now);
  rt.onReset('x', () => {
    for (const m of store.data.media) rt.blobs.remove(m.blob);
    store.data = seedX();
    store.save();
  });
  registerXOAuth(app, rt, store);
  registerXApi(app, rt, store);
  app.register(
    async (scope) => {
      scope.setNotFoundHandler(async (req, reply) => {
        const e = problem(
          404,
          'Not Found Error',
          `Sorry, that page does not exist: ${req.method} ${req.url}`,
          'about:blank',
        );
        return reply.code(404).send(e.body);
      });
    },
    { prefix: '/x/api' },
  );
}
