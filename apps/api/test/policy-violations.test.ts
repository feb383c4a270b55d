import { describe, expect, it } from 'vitest';
import { policyViolationJa } from '@tenpo/domain';
import { POLICY_VIOLATIONS } from '@tenpo/sandbox';

// Every reason Google may give for rejecting a reply (the emulator holds the reference's 43)
// has a Japanese label in the inbox; an unknown one is shown as Google sent it.
describe('policyViolationJa', () => {
  it.each(POLICY_VIOLATIONS.map((v) => [v]))('%s has a Japanese label', (code) => {
    const label = policyViolationJa(code);
    expect(label).not.toBe(code);
    expect(label).toMatch(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u);
    expect(label.endsWith(`（${code}）`)).toBe(true);
  });

  it('shows a value Google adds later as it is', () => {
    expect(policyViolationJa('SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });
});
