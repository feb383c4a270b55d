import { describe, expect, it } from 'vitest';
import { ID_MAX, idField, idText, isIdText } from './ids';

describe('idField', () => {
  const f = idField('bad');
  it.each([
    [2, 2],
    ['2', 2],
    ['02', 2],
    [ID_MAX, ID_MAX],
    [String(ID_MAX), ID_MAX],
  ])('takes %j as %j', (input, expected) => {
    expect(f.parse(input)).toBe(expected);
  });

  it.each([
    [[2]],
    ['0x2'],
    ['2.0'],
    [2.5],
    [true],
    [false],
    [''],
    [' 2'],
    ['1e1'],
    ['+2'],
    [0],
    ['0'],
    [-1],
    [ID_MAX + 1],
    [String(ID_MAX + 1)],
    ['99999999999999999999'],
    [null],
    [undefined],
    [{}],
  ])('refuses %j with the field message', (input) => {
    const r = f.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual(['bad']);
  });

  it('idText takes digits only', () => {
    expect(idText().safeParse('12').data).toBe(12);
    expect(idText().safeParse(12).success).toBe(false);
    expect(isIdText('12')).toBe(true);
    expect(isIdText('0')).toBe(false);
    expect(isIdText('1.0')).toBe(false);
  });
});
