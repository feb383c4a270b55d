import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decrypt, encrypt, hashToken, newToken, safeEqualTo } from './tokens';

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

  it('compares with a fixed secret, every character of it', () => {
    const isKey = safeEqualTo('tenpo-key-0123456789');
    expect(isKey('tenpo-key-0123456789')).toBe(true);
    expect(isKey('Tenpo-key-0123456789')).toBe(false);
    expect(isKey('tenpo-key-0123456780')).toBe(false);
    expect(isKey('tenpo-key-012345678')).toBe(false);
    expect(isKey('tenpo-key-01234567890')).toBe(false);
    expect(isKey('')).toBe(false);
    expect(safeEqualTo('鍵-key')('鍵-key')).toBe(true);
    expect(safeEqualTo('鍵-key')('鎰-key')).toBe(false);
  });
});
