import { describe, expect, it } from 'vitest';
import { knownOriginOf } from './hosts';

const agencies = async (prefix: string) => prefix === 'demo';

describe('knownOriginOf (ADR 0015)', () => {
  it.each([
    [
      'an agency under PUBLIC_URL',
      'https://tenpo.example',
      'demo.tenpo.example',
      'https://demo.tenpo.example',
    ],
    [
      'PUBLIC_URL itself: a relative path lands there',
      'https://tenpo.example',
      'tenpo.example',
      null,
    ],
    ['PUBLIC_URL with its default port', 'https://tenpo.example', 'tenpo.example:443', null],
    ['an unknown prefix', 'https://tenpo.example', 'evil.tenpo.example', null],
    ['a prefix two labels deep', 'https://tenpo.example', 'a.demo.tenpo.example', null],
    ['another domain', 'https://tenpo.example', 'demo.evil.example', null],
    ['a look-alike suffix', 'https://tenpo.example', 'demotenpo.example', null],
    ['another port', 'http://localhost:3000', 'demo.localhost:4000', null],
    ['user info smuggled in', 'https://tenpo.example', 'evil.example@demo.tenpo.example', null],
    ['a path smuggled in', 'https://tenpo.example', 'demo.tenpo.example/x', null],
    ['no host', 'https://tenpo.example', undefined, null],
    [
      'an agency under localhost',
      'http://localhost:3000',
      'demo.localhost:3000',
      'http://demo.localhost:3000',
    ],
    [
      '127.0.0.1 when PUBLIC_URL is localhost',
      'http://localhost:3000',
      '127.0.0.1:3000',
      'http://127.0.0.1:3000',
    ],
    [
      'localhost when PUBLIC_URL is 127.0.0.1',
      'http://127.0.0.1:3000',
      'localhost:3000',
      'http://localhost:3000',
    ],
    [
      'an agency under localhost when PUBLIC_URL is 127.0.0.1',
      'http://127.0.0.1:3000',
      'demo.localhost:3000',
      'http://demo.localhost:3000',
    ],
    ['no agency under an IP address', 'http://127.0.0.1:3000', 'demo.127.0.0.1:3000', null],
    ['a public host is not a loopback alias', 'https://tenpo.example', 'localhost', null],
  ] as const)('%s', async (_n, publicUrl, host, want) => {
    expect(await knownOriginOf(publicUrl, host, agencies)).toBe(want);
  });
});
