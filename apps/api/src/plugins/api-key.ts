import type { FastifyInstance } from 'fastify';
import { ja } from '@tenpo/domain';
import { AppError } from '../lib/errors';
import { safeEqualTo } from '../lib/tokens';

export const API_KEY_HEADER = 'x-api-key';

/** Every call under /api carries the fixed API-key header (DESIGN §3); health and docs do not need it. */
export function registerApiKey(
  app: FastifyInstance,
  apiKey: string,
  open: (url: string) => boolean,
): void {
  const isApiKey = safeEqualTo(apiKey);
  // A callback hook, not an async one: every call passes here, and a promise per call costs.
  // The key first: almost every call carries it, and then the exempt paths need no look.
  app.addHook('onRequest', (request, _reply, done) => {
    const given = request.headers[API_KEY_HEADER];
    if ((typeof given === 'string' && isApiKey(given)) || open(request.url)) return done();
    done(new AppError(401, 'invalid_api_key', ja.invalidApiKey));
  });
}
