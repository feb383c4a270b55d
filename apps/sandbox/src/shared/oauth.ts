import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The one OAuth client every emulator knows. Real providers register redirect URIs too; the
 * sandbox accepts any absolute http(s) redirect URI, and checks at the token exchange that it is
 * the same as at the authorization step, as they all do.
 */
export const SANDBOX_CLIENT = { id: 'tenpo-sandbox', secret: 'tenpo-sandbox-secret' } as const;

export const clientKnown = (id: string | undefined): boolean => id === SANDBOX_CLIENT.id;

export const secretMatches = (id: string | undefined, secret: string | undefined): boolean => {
  if (id !== SANDBOX_CLIENT.id || typeof secret !== 'string') return false;
  const a = Buffer.from(secret);
  const b = Buffer.from(SANDBOX_CLIENT.secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** RFC 7636: S256 is BASE64URL(SHA256(verifier)); plain compares as is. Method is case-insensitive. */
export function pkceMatches(
  challenge: string,
  method: string | undefined,
  verifier: string,
): boolean {
  const m = (method ?? 'plain').toUpperCase();
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  if (m === 'S256') return createHash('sha256').update(verifier).digest('base64url') === challenge;
  if (m === 'PLAIN') return verifier === challenge;
  return false;
}

export const s256 = (verifier: string): string =>
  createHash('sha256').update(verifier).digest('base64url');
