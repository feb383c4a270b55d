import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl } from './log-redact';

describe('redactUrl (ADR 0065)', () => {
  it.each([
    [
      '/reset-password?token=abc&email=a%40b.jp',
      `/reset-password?token=${REDACTED}&email=${REDACTED}`,
    ],
    ['/uploads/x.png?expires=9&signature=sig', `/uploads/x.png?expires=9&signature=${REDACTED}`],
    ['/cb?code=c&state=s&scope=a', `/cb?code=${REDACTED}&state=${REDACTED}&scope=a`],
    ['/cb?access_token=t&new_email=x', `/cb?access_token=${REDACTED}&new_email=${REDACTED}`],
    ['/list?to=someone@example.jp&page=2', `/list?to=${REDACTED}&page=2`],
    ['/list?q=a%40b&page=2#top', `/list?q=${REDACTED}&page=2`],
    ['/plain', '/plain'],
    ['/api/posts?page=1&per_page=10', '/api/posts?page=1&per_page=10'],
    ['/bad?token=%E0%A4%A', `/bad?token=${REDACTED}`],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
