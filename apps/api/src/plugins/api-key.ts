import type { FastifyInstance } from 'fastify';
import { ja } from '@tenpo/domain';
import { AppError } from '../lib/errors';
import { safeEqual } from '../lib/tokens';

export const API_KEY_HEADER = 'x-api-key';

/** Every call under /api carries the fixed API-key header (DESIGN §3); health and docs do not need it. */
export function registerApiKey(
  app: FastifyInstance,
  apiKey: string,
  open: (url: string) => boolean,
): void {
  app.addHook('onRequest', async (request) => {
    if (open(request.url)) return;
    const given = request.headers[API_KEY_HEADER];
    if (typeof given !== 'string' || !safeEqual(given, apiKey)) {
      throw new AppError(401, 'invalid_api_key', ja.invalidApiKey);
    }
  });
}
