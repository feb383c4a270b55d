import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decrypt, encrypt, hashToken, newToken } from './tokens';

describe('tokens', () => {
  it('are random and stored only as a hash', () => {
    const a = newToken();
    expect(a).not.toBe(newToken());
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).not.toContain(a);
  });

  it('seals and opens provider tokens, and refuses a tampered one', () => {
    const key = randomBytes(32);
    const sealed = encrypt(key, 'ya29.secret');
    expect(sealed).not.toContain('ya29');
    expect(decrypt(key, sealed)).toBe('ya29.secret');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => decrypt(key, parts.join('.'))).toThrow();
    expect(() => decrypt(randomBytes(32), sealed)).toThrow();
  });
});
