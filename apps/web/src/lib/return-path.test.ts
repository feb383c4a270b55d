import { beforeEach, describe, expect, it } from 'vitest';
import {
  isSafeReturnPath,
  peekReturnPath,
  rememberReturnPath,
  takeReturnPath,
} from './return-path';

describe('return path after a login', () => {
  beforeEach(() => sessionStorage.clear());

  it('keeps a path of this site once', () => {
    rememberReturnPath('/create-post?x=1');
    expect(peekReturnPath()).toBe('/create-post?x=1');
    expect(takeReturnPath()).toBe('/create-post?x=1');
    expect(takeReturnPath()).toBeNull();
  });

  it('never keeps another host, a scheme, or /login', () => {
    for (const p of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      '/login',
      '/login?x',
      '',
    ]) {
      expect(isSafeReturnPath(p)).toBe(false);
      rememberReturnPath(p);
      expect(takeReturnPath()).toBeNull();
    }
  });

  it('refuses a tampered stored value', () => {
    sessionStorage.setItem('tenpo.returnTo', '//evil.example');
    expect(takeReturnPath()).toBeNull();
  });
});
