import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

/** An opaque random token for sessions and mailed links (256 bits, URL-safe). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * Tokens are stored only as their SHA-256; a database leak yields no usable token. The one-shot
 * `hash` (every authenticated call hashes its token) is a third of `createHash`'s cost.
 */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/**
 * A comparison with a fixed secret (the API key) whose time does not depend on where the two
 * differ: every code unit is compared, with no early exit. Done on the strings themselves, not
 * with `timingSafeEqual` on Buffers: every call passes here, and the two Buffers cost more than
 * the comparison (ADR 0031). The length is not secret (nor is a key that ships in the web app).
 */
export const safeEqualTo = (secret: string): ((given: string) => boolean) => {
  const n = secret.length;
  return (given) => {
    if (given.length !== n) return false;
    let diff = 0;
    for (let i = 0; i < n; i++) diff |= given.charCodeAt(i) ^ secret.charCodeAt(i);
    return diff === 0;
  };
};

/** AES-256-GCM with a random IV, for provider tokens at rest: `v1.<iv>.<tag>.<data>` base64url. */
export const encrypt = (key: Buffer, plain: string): string => {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
};

export const decrypt = (key: Buffer, sealed: string): string => {
  const [v, iv, tag, data] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(data, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
};
