import type { FastifyInstance } from 'fastify';
import { forbidden, notFound } from '../lib/errors';
import { isMediaKey, isPublicKey, MediaNotFoundError, type MediaStorage } from './media-storage';
import type { UrlSigner } from './url-signer';

/**
 * GET /uploads/<key>: the stable public path of media, whatever the driver, so that rows keep
 * one URL (`logo_url`) and processes share files through the store. On a private store only a
 * signed, unexpired URL (`url()` of the local driver) is served, except the public folders.
 */
export function registerMediaRoutes(
  app: FastifyInstance,
  deps: { storage: MediaStorage; signer: UrlSigner; private: boolean },
): void {
  app.get('/uploads/*', async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    if (!isMediaKey(key)) throw notFound();
    const query = req.query as Record<string, unknown>;
    if (deps.private && !isPublicKey(key) && !deps.signer.verify(key, query)) throw forbidden();
    const stat = await deps.storage.stat(key);
    if (!stat) throw notFound();
    reply
      .header('content-type', stat.contentType)
      .header('content-length', stat.size)
      // Keys are random and never rewritten: what was served once stays right.
      .header(
        'cache-control',
        deps.private && !isPublicKey(key)
          ? 'private, max-age=300'
          : 'public, max-age=31536000, immutable',
      );
    if (req.method === 'HEAD') return reply.send();
    try {
      return reply.send(await deps.storage.open(key));
    } catch (err) {
      // Deleted between stat and open.
      if (err instanceof MediaNotFoundError) throw notFound();
      throw err;
    }
  });
}
