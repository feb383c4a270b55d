import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignedQuery = { expires: string; signature: string };

/**
 * Signs media URLs served by the API (the local driver's private mode): an HMAC-SHA256 of the key
 * and the expiry, under a key derived from the server's secret so that the secret itself signs
 * nothing else. A signature covers one key until one second: changing either refuses it.
 */
export function createUrlSigner(secret: Buffer, now: () => number = Date.now) {
  const macKey = createHmac('sha256', secret).update('tenpo media url v1').digest();
  const mac = (key: string, expires: number): Buffer =>
    createHmac('sha256', macKey).update(`${key}\n${expires}`).digest();
  return {
    sign(key: string, expiresInSeconds: number): SignedQuery {
      const expires = Math.floor(now() / 1000) + Math.max(1, Math.floor(expiresInSeconds));
      return { expires: String(expires), signature: mac(key, expires).toString('base64url') };
    },
    verify(key: string, query: Partial<Record<string, unknown>>): boolean {
      const { expires, signature } = query;
      if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
      if (typeof signature !== 'string' || !/^[\w-]{43}$/.test(signature)) return false;
      const at = Number(expires);
      if (Math.floor(now() / 1000) > at) return false;
      // Compared as written, not decoded: the last of 43 base64url characters carries two unused
      // bits, so four spellings decode to the same MAC; only the one we issued is accepted.
      return timingSafeEqual(
        Buffer.from(signature),
        Buffer.from(mac(key, at).toString('base64url')),
      );
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
