import { describe, expect, it } from 'vitest';
import {
  DAY_HOURS,
  periodsOfRows,
  readTypedTime,
  rowsOfPeriods,
  samePeriods,
  type DayRow,
} from './hours';
import { businessDetailsRequest, contactsRequest, coreInformationRequest } from './schemas';

const row = (
  day: DayRow['day'],
  type: DayRow['type'],
  open = '09:00',
  close = '18:00',
): DayRow => ({
  day,
  type,
  open,
  close,
});

describe('hours (spec 2 §4)', () => {
  it.each([
    [
      'an open day',
      [row('MONDAY', DAY_HOURS.OPEN, '09:00', '18:30')],
      [
        {
          openDay: 'MONDAY',
          closeDay: 'MONDAY',
          openTime: { hours: 9 },
          closeTime: { hours: 18, minutes: 30 },
        },
      ],
    ],
    [
      'a second interval the same day',
      [
        row('MONDAY', DAY_HOURS.OPEN, '09:00', '12:00'),
        row('MONDAY', DAY_HOURS.OPEN, '13:15', '20:45'),
      ],
      [
        { openDay: 'MONDAY', closeDay: 'MONDAY', openTime: { hours: 9 }, closeTime: { hours: 12 } },
        {
          openDay: 'MONDAY',
          closeDay: 'MONDAY',
          openTime: { hours: 13, minutes: 15 },
          closeTime: { hours: 20, minutes: 45 },
        },
      ],
    ],
    [
      'all day is 00:00 to 24:00',
      [row('TUESDAY', DAY_HOURS.ALL_DAYS)],
      [{ openDay: 'TUESDAY', closeDay: 'TUESDAY', openTime: {}, closeTime: { hours: 24 } }],
    ],
    ['a closed day is left out', [row('SUNDAY', DAY_HOURS.CLOSED)], []],
    [
      'closing after midnight closes the next day (Sunday to Monday)',
      [row('SUNDAY', DAY_HOURS.OPEN, '18:00', '02:00')],
      [{ openDay: 'SUNDAY', closeDay: 'MONDAY', openTime: { hours: 18 }, closeTime: { hours: 2 } }],
    ],
    [
      'closing at 00:00 is 24:00 the same day',
      [row('FRIDAY', DAY_HOURS.OPEN, '17:00', '00:00')],
      [
        {
          openDay: 'FRIDAY',
          closeDay: 'FRIDAY',
          openTime: { hours: 17 },
          closeTime: { hours: 24 },
        },
      ],
    ],
  ])('%s', (_name, rows, periods) => {
    expect(periodsOfRows(rows)).toEqual(periods);
  });

  it('reads periods back as seven days, closed where there is none, intervals in order', () => {
    const rows = rowsOfPeriods([
      { openDay: 'MONDAY', closeDay: 'MONDAY', openTime: { hours: 13 }, closeTime: { hours: 20 } },
      { openDay: 'MONDAY', closeDay: 'MONDAY', openTime: { hours: 9 }, closeTime: { hours: 12 } },
      { openDay: 'WEDNESDAY', closeDay: 'WEDNESDAY', openTime: {}, closeTime: { hours: 24 } },
    ]);
    expect(
      rows.map((r) => `${r.day}:${r.type}:${r.type === 0 ? `${r.open}-${r.close}` : ''}`),
    ).toEqual([
      'MONDAY:0:09:00-12:00',
      'MONDAY:0:13:00-20:00',
      'TUESDAY:2:',
      'WEDNESDAY:1:',
      'THURSDAY:2:',
      'FRIDAY:2:',
      'SATURDAY:2:',
      'SUNDAY:2:',
    ]);
    expect(
      samePeriods(periodsOfRows(rows), periodsOfRows(rowsOfPeriods(periodsOfRows(rows)))),
    ).toBe(true);
  });

  it('compares periods as Google does: zero fields and order do not matter', () => {
    expect(
      samePeriods(
        [
          {
            openDay: 'MONDAY',
            closeDay: 'MONDAY',
            openTime: { hours: 9, minutes: 0 },
            closeTime: { hours: 18 },
          },
        ],
        [
          {
            openDay: 'MONDAY',
            closeDay: 'MONDAY',
            openTime: { hours: 9 },
            closeTime: { hours: 18, minutes: 0 },
          },
        ],
      ),
    ).toBe(true);
    expect(
      samePeriods(
        [
          {
            openDay: 'MONDAY',
            closeDay: 'MONDAY',
            openTime: { hours: 9 },
            closeTime: { hours: 18 },
          },
        ],
        [
          {
            openDay: 'MONDAY',
            closeDay: 'MONDAY',
            openTime: { hours: 9 },
            closeTime: { hours: 19 },
          },
        ],
      ),
    ).toBe(false);
  });
});

const core = {
  user_id: 2,
  name: '渋谷カフェ',
  postal_code: '150-0002',
  prefecture: '東京都',
  locality: '渋谷区',
  address1: '渋谷2-21-1',
  address2: 'ヒカリエ 8F',
  main_phone: '+81312345678',
  primary_category_id: 'categories/gcid:cafe',
  additional_categorie_id: ['categories/gcid:coffee_shop'],
};
const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : (r.error?.issues.map((i) => i.message) ?? []);

describe('a typed time in the hours editor (ADR 0069)', () => {
  it.each([
    ['10:15', 'open', { kind: 'exact', time: '10:15' }],
    ['9:00', 'open', { kind: 'exact', time: '09:00' }],
    ['1015', 'open', { kind: 'exact', time: '10:15' }],
    ['930', 'open', { kind: 'exact', time: '09:30' }],
    ['18', 'close', { kind: 'exact', time: '18:00' }],
    ['１０：４５', 'open', { kind: 'exact', time: '10:45' }],
    ['10時15分', 'open', { kind: 'exact', time: '10:15' }],
    [' 7:45 ', 'open', { kind: 'exact', time: '07:45' }],
    ['00:00', 'close', { kind: 'exact', time: '00:00' }],
    ['10:10', 'open', { kind: 'rounded', time: '10:15' }],
    ['10:07', 'open', { kind: 'rounded', time: '10:00' }],
    ['10:08', 'open', { kind: 'rounded', time: '10:15' }],
    ['9:53', 'close', { kind: 'rounded', time: '10:00' }],
    ['23:55', 'close', { kind: 'rounded', time: '00:00' }],
    ['23:55', 'open', { kind: 'rounded', time: '23:45' }],
    ['24:00', 'close', { kind: 'exact', time: '00:00' }],
    ['24:00', 'open', { kind: 'rounded', time: '23:45' }],
    ['25:00', 'open', { kind: 'unreadable' }],
    ['10:60', 'open', { kind: 'unreadable' }],
    ['24:30', 'close', { kind: 'unreadable' }],
    ['', 'open', { kind: 'unreadable' }],
    ['abc', 'open', { kind: 'unreadable' }],
    ['10:1', 'open', { kind: 'rounded', time: '10:00' }],
  ] as const)('%s as %s time → %o', (text, role, want) => {
    expect(readTypedTime(text, role)).toEqual(want);
  });
});

describe('core information rules (spec 2 §5)', () => {
  it('accepts a complete form', () => {
    expect(coreInformationRequest.safeParse(core).success).toBe(true);
  });
  it.each([
    ['name', { name: '' }, 'ビジネス名 を入力してください。'],
    ['"Entity" counts as empty', { name: 'Entity' }, 'ビジネス名 を入力してください。'],
    ['postal code', { postal_code: '' }, '郵便番号 を入力してください。'],
    [
      'postal code shape',
      { postal_code: '15-00002' },
      '郵便番号は 123-4567 の形式で入力してください。',
    ],
    ['prefecture', { prefecture: ' ' }, '都道府県 を入力してください。'],
    ['address1', { address1: undefined }, '番地 を入力してください。'],
    ['address2', { address2: '' }, '建物名・部屋番号 を入力してください。'],
    [
      'a phone not normalised',
      { main_phone: '03-1234-5678' },
      '電話番号の形式が正しくありません。',
    ],
    ['corporate code digits only', { corporate_code: '12a' }, '数字のみを入力してください'],
    [
      'a category twice',
      { additional_categorie_id: ['categories/gcid:bar', 'categories/gcid:bar'] },
      '同じカテゴリが重複しています。',
    ],
    [
      'the main category again',
      { additional_categorie_id: ['categories/gcid:cafe'] },
      'メインカテゴリを追加カテゴリにも選ぶことはできません。',
    ],
  ])('%s', (_n, over, message) => {
    expect(messages(coreInformationRequest.safeParse({ ...core, ...over }))).toContain(message);
  });
  it('locality may be left out (spec 2 §5: "if present")', () => {
    const r = coreInformationRequest.parse({ ...core, locality: '' });
    expect(r.locality).toBeNull();
  });
});

describe('business details and contacts rules (spec 2 §5, §7)', () => {
  it('takes hours as JSON text and refuses a malformed one', () => {
    const ok = businessDetailsRequest.parse({
      user_id: 2,
      hours: JSON.stringify([
        { openDay: 'MONDAY', closeDay: 'MONDAY', openTime: { hours: 9 }, closeTime: { hours: 18 } },
      ]),
    });
    expect(ok.hours).toHaveLength(1);
    expect(messages(businessDetailsRequest.safeParse({ user_id: 2, hours: '[{' }))).toEqual([
      '営業時間の形式が正しくありません。',
    ]);
    expect(
      businessDetailsRequest.safeParse({ user_id: 2, hours: '[{"openDay":"FUNDAY"}]' }).success,
    ).toBe(false);
    expect(businessDetailsRequest.parse({ user_id: 2, hours: '[]' }).hours).toEqual([]);
  });
  it.each([
    ['a bracketed list', '["a@shop.jp","b@shop.jp"]', ['a@shop.jp', 'b@shop.jp']],
    ['null', null, []],
    ['a list', ['c@shop.jp'], ['c@shop.jp']],
  ])('e-mails as %s', (_n, email, out) => {
    expect(contactsRequest.parse({ user_id: 2, email }).email).toEqual(out);
  });
  it.each([
    ['an invalid e-mail', { email: '["not-an-email"]' }, 'メールアドレスが正しくありません。'],
    ['a website without http(s)', { website_url: 'ftp://shop.jp' }, 'urlのみ入力してください。'],
    ['a website without a host', { website_url: 'https://' }, 'urlのみ入力してください。'],
  ])('%s', (_n, over, message) => {
    expect(messages(contactsRequest.safeParse({ user_id: 2, ...over }))).toContain(message);
  });
});
