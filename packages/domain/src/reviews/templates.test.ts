import { describe, expect, it } from 'vitest';
import { checkReply } from '../compliance/check';
import { RULE_SET_IDS, type RuleSetId } from '../compliance/schemas';
import { reviewTemplateJa } from '../messages/reviews';
import {
  BUILTIN_REPLY_TEMPLATES,
  pickReplyTemplate,
  renderReplyTemplate,
  replyTemplateCreateBody,
  STAR_BANDS,
  starBandOf,
  replyTemplateBodyIssues,
  unknownReplyTemplateVariables,
} from './templates';

describe('starBandOf', () => {
  it.each([
    [1, 'low'],
    [2, 'low'],
    [3, 'mid'],
    [4, 'high'],
    [5, 'high'],
  ] as const)('★%i → %s', (stars, band) => {
    expect(starBandOf(stars)).toBe(band);
  });
});

describe('renderReplyTemplate', () => {
  const store = 'カフェ テンポ 渋谷店';
  it.each([
    [
      '{reviewer_name}、ありがとうございます。',
      '山田 太郎',
      false,
      '山田 太郎様、ありがとうございます。',
    ],
    [
      '{reviewer_name}様、ありがとうございます。',
      '山田 太郎',
      false,
      '山田 太郎様、ありがとうございます。',
    ],
    ['{reviewer_name}さま、どうも。', '山田', false, '山田様、どうも。'],
    ['{reviewer_name}、ありがとうございます。', '', false, 'お客様、ありがとうございます。'],
    ['{reviewer_name}様、ありがとうございます。', '   ', false, 'お客様、ありがとうございます。'],
    [
      '{reviewer_name}様、ありがとうございます。',
      '山田 太郎',
      true,
      'お客様、ありがとうございます。',
    ],
    ['{お客様名}、{店舗名}です。', 'Ann', false, 'Ann様、カフェ テンポ 渋谷店です。'],
    ['{store_name}と{store_name}', null, false, `${store}と${store}`],
    ['{name} はそのまま', '山田', false, '{name} はそのまま'],
    ['変数なし', '山田', false, '変数なし'],
  ] as const)('%s (%s)', (body, reviewerName, isAnonymous, expected) => {
    expect(renderReplyTemplate(body, { reviewerName, isAnonymous, storeName: store })).toBe(
      expected,
    );
  });

  it('takes `$` in a name literally', () => {
    expect(renderReplyTemplate('{reviewer_name}', { reviewerName: "$&$'", storeName: '$1' })).toBe(
      "$&$'様",
    );
    expect(renderReplyTemplate('{store_name}', { reviewerName: null, storeName: '$1' })).toBe('$1');
  });
});

describe('replyTemplateBodyIssues', () => {
  it.each([
    ['ありがとうございます。', []],
    ['{reviewer_name}、{store_name}、{お客様名}、{店舗名}', []],
    ['', [reviewTemplateJa.bodyRequired]],
    [' \n ', [reviewTemplateJa.bodyRequired]],
    ['あ'.repeat(1365), []],
    ['あ'.repeat(1366), [reviewTemplateJa.bodyTooLong]],
    ['{name}様 {name} {お名前}', [reviewTemplateJa.unknownVariables('{name}、{お名前}')]],
    ['{ 空白入り } と {} は変数ではない', []],
  ] as const)('%s', (body, issues) => {
    expect(replyTemplateBodyIssues(body)).toEqual(issues);
  });

  it('names the unknown variables once each', () => {
    expect(unknownReplyTemplateVariables('{a}{b}{a}{store_name}')).toEqual(['{a}', '{b}']);
  });

  it('the create body trims and refuses with the messages on `body`', () => {
    const okBody = replyTemplateCreateBody.safeParse({
      user_id: 3,
      star_band: 'low',
      body: '  ご意見ありがとうございます。 ',
    });
    expect(okBody.success && okBody.data).toMatchObject({
      body: 'ご意見ありがとうございます。',
      scope: 'store',
    });
    const bad = replyTemplateCreateBody.safeParse({ user_id: 3, star_band: 'low', body: ' ' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['body', reviewTemplateJa.bodyRequired],
    ]);
    expect(
      replyTemplateCreateBody.safeParse({ user_id: 3, star_band: 'top', body: 'x' }).success,
    ).toBe(false);
  });
});

describe('pickReplyTemplate', () => {
  const t = (key: string) => ({ key });
  /** A random source that walks through the given draws. */
  const draws = (...xs: number[]) => {
    let i = 0;
    return () => xs[i++ % xs.length] ?? 0;
  };

  it.each([
    ['none', [], null, 0, null],
    ['the only one, even when it was last', ['a'], 'a', 0.9, 'a'],
    ['first of three', ['a', 'b', 'c'], null, 0, 'a'],
    ['last of three', ['a', 'b', 'c'], null, 0.999, 'c'],
    ['never the last one drawn', ['a', 'b', 'c'], 'a', 0, 'b'],
    ['never the last one drawn (high draw)', ['a', 'b', 'c'], 'c', 0.999, 'b'],
    ['a last key no longer there changes nothing', ['a', 'b'], 'z', 0.6, 'b'],
  ] as const)('%s', (_what, keys, last, draw, expected) => {
    expect(pickReplyTemplate(keys.map(t), last, () => draw)?.key ?? null).toBe(expected);
  });

  it('two draws in a row differ, whatever the random source says', () => {
    const pool = ['a', 'b', 'c'].map(t);
    for (const r of [draws(0), draws(0.5), draws(0.99), draws(0.2, 0.7)]) {
      let last: string | null = null;
      for (let n = 0; n < 20; n++) {
        const next: string | null = pickReplyTemplate(pool, last, r)?.key ?? null;
        expect(next).not.toBe(last);
        last = next;
      }
    }
  });
});

describe('the built-in templates', () => {
  it('are three or more a band, with unique keys and valid bodies', () => {
    for (const band of STAR_BANDS)
      expect(BUILTIN_REPLY_TEMPLATES.filter((b) => b.star_band === band).length).toBeGreaterThan(2);
    expect(new Set(BUILTIN_REPLY_TEMPLATES.map((b) => b.key)).size).toBe(
      BUILTIN_REPLY_TEMPLATES.length,
    );
    for (const b of BUILTIN_REPLY_TEMPLATES) expect(replyTemplateBodyIssues(b.body)).toEqual([]);
  });

  const stores = ['カフェ テンポ 渋谷店', '岡田整骨院 下北沢', 'ヘアサロン ルミエール 表参道'];
  const sets: RuleSetId[][] = [[...RULE_SET_IDS], ...RULE_SET_IDS.map((s) => [s])];
  const cases = BUILTIN_REPLY_TEMPLATES.flatMap((b) => stores.map((s) => [b.key, b.body, s]));

  it.each(cases)('%s for %s… passes the check of every rule set', (_key, body, _store) => {
    for (const [reviewerName, isAnonymous] of [
      ['山田 太郎', false],
      ['', true],
    ] as const) {
      const text = renderReplyTemplate(body, { reviewerName, isAnonymous, storeName: _store });
      expect(text).not.toMatch(/[{}]/u);
      for (const ruleSets of sets) expect(checkReply(text, { ruleSets, reviewerName })).toEqual([]);
    }
  });
});
