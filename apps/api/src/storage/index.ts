import type { Config } from '../config';
import { createLocalStorage } from './local-storage';
import type { MediaStorage } from './media-storage';
import { createS3Storage } from './s3-storage';
import { createUrlSigner } from './url-signer';

export * from './media-storage';
export { createLocalStorage } from './local-storage';
export { createS3Storage } from './s3-storage';
export { createUrlSigner, type UrlSigner } from './url-signer';
export { registerMediaRoutes } from './media.routes';

/** The configured driver (STORAGE_DRIVER). */
export function createMediaStorage(config: Config): MediaStorage {
  const s = config.storage;
  if (s.driver === 's3') return createS3Storage(s);
  return createLocalStorage({
    root: s.root,
    baseUrl: `${config.publicUrl}/uploads`,
    private: s.private,
    urlTtlSeconds: s.urlTtlSeconds,
    signer: createUrlSigner(config.secretKey),
  });
}
