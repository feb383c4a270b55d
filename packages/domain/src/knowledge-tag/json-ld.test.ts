import { describe, expect, it } from 'vitest';
import type { BasicInformation } from '../publishers/schemas';
import { hoursPeriodsOf, sameAsOf, storeFactsOf } from './facts';
import { onWebsite, originOf } from './schemas';
import {
  checkTemplate,
  DEFAULT_SCHEMA_TEMPLATE_TEXT,
  embedFieldValues,
  hoursText,
  localBusinessJsonLd,
  openingHours,
  placeholderValues,
  renderTemplate,
  type HoursPeriod,
  type StoreFacts,
} from './json-ld';
import { templateMessages } from '../messages/knowledge-tag';

const period = (
  openDay: HoursPeriod['openDay'],
  open: [number, number] | null,
  close: [number, number],
  closeDay = openDay,
): HoursPeriod => ({
  openDay,
  closeDay,
  openTime: open ? { hours: open[0], minutes: open[1] } : null,
  closeTime: { hours: close[0], minutes: close[1] },
});

const facts: StoreFacts = {
  name: 'カフェ テンポ 渋谷店',
  address: {
    postalCode: '150-0002',
    region: '東京都',
    locality: '渋谷区',
    lines: ['渋谷2-21-1', '渋谷ヒカリエ 6F'],
    country: 'JP',
  },
  geo: { latitude: 35.659, longitude: 139.7035 },
  telephone: '+81 3-1234-5678',
  hours: [period('MONDAY', [8, 0], [21, 0]), period('SUNDAY', [9, 0], [20, 0])],
  url: 'https://cafe-tenpo.example',
  photos: ['https://cdn.example/p1.jpg'],
  sameAs: ['https://www.facebook.com/104857392017465'],
  offers: [
    { name: 'ブレンド', description: null, minimumPrice: 500, maximumPrice: 500, url: null },
    { name: 'ランチ', description: '日替わり', minimumPrice: 900, maximumPrice: 1200, url: null },
  ],
};

describe('openingHours', () => {
  it.each<[string, HoursPeriod[], unknown]>([
    ['none', [], []],
    [
      'same times on several days become one entry, Monday first',
      [period('FRIDAY', [9, 0], [18, 0]), period('MONDAY', [9, 0], [18, 0])],
      [
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Monday', 'Friday'],
          opens: '09:00',
          closes: '18:00',
        },
      ],
    ],
    [
      'two intervals on one day stay two entries',
      [period('MONDAY', [14, 0], [21, 0]), period('MONDAY', [8, 0], [12, 0])],
      [
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Monday'],
          opens: '08:00',
          closes: '12:00',
        },
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Monday'],
          opens: '14:00',
          closes: '21:00',
        },
      ],
    ],
    [
      'all day: empty openTime and {hours: 24}',
      [period('SATURDAY', null, [24, 0])],
      [
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Saturday'],
          opens: '00:00',
          closes: '23:59',
        },
      ],
    ],
    [
      'past midnight keeps its opening day',
      [period('FRIDAY', [22, 30], [2, 0], 'SATURDAY')],
      [
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Friday'],
          opens: '22:30',
          closes: '02:00',
        },
      ],
    ],
  ])('%s', (_what, periods, expected) => {
    expect(openingHours(periods)).toEqual(expected);
  });

  it('writes closed days as 定休日 in the hours text', () => {
    expect(hoursText([period('MONDAY', [8, 0], [21, 0])])).toBe(
      '月 08:00–21:00 / 火 定休日 / 水 定休日 / 木 定休日 / 金 定休日 / 土 定休日 / 日 定休日',
    );
  });
});

describe('localBusinessJsonLd', () => {
  it('builds the LocalBusiness with every fact', () => {
    expect(localBusinessJsonLd(facts)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      name: 'カフェ テンポ 渋谷店',
      address: {
        '@type': 'PostalAddress',
        postalCode: '150-0002',
        addressRegion: '東京都',
        addressLocality: '渋谷区',
        streetAddress: '渋谷2-21-1 渋谷ヒカリエ 6F',
        addressCountry: 'JP',
      },
      geo: { '@type': 'GeoCoordinates', latitude: 35.659, longitude: 139.7035 },
      telephone: '+81 3-1234-5678',
      url: 'https://cafe-tenpo.example',
      image: ['https://cdn.example/p1.jpg'],
      openingHoursSpecification: [
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Monday'],
          opens: '08:00',
          closes: '21:00',
        },
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: ['Sunday'],
          opens: '09:00',
          closes: '20:00',
        },
      ],
      sameAs: ['https://www.facebook.com/104857392017465'],
      makesOffer: [
        {
          '@type': 'Offer',
          itemOffered: { '@type': 'Product', name: 'ブレンド' },
          price: 500,
          priceCurrency: 'JPY',
        },
        {
          '@type': 'Offer',
          itemOffered: { '@type': 'Product', name: 'ランチ', description: '日替わり' },
          priceSpecification: {
            '@type': 'PriceSpecification',
            minPrice: 900,
            maxPrice: 1200,
            priceCurrency: 'JPY',
          },
        },
      ],
    });
  });

  it('leaves out what the store does not have', () => {
    const bare: StoreFacts = {
      ...facts,
      address: { postalCode: null, region: null, locality: null, lines: [], country: 'JP' },
      geo: null,
      telephone: null,
      hours: [],
      url: null,
      photos: [],
      sameAs: [],
      offers: [],
    };
    expect(localBusinessJsonLd(bare)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'LocalBusiness',
      name: 'カフェ テンポ 渋谷店',
    });
  });
});

describe('renderTemplate', () => {
  const values = placeholderValues(facts);
  it.each<[string, unknown, unknown]>([
    ['a whole placeholder becomes the value', { a: '{{geo}}' }, { a: values.geo }],
    [
      'inside a text it becomes text',
      { d: '{{name}}（{{locality}}）' },
      { d: 'カフェ テンポ 渋谷店（渋谷区）' },
    ],
    ['an object inside a text is dropped', { d: 'x{{address}}' }, { d: 'x' }],
    [
      'the user’s own properties stay',
      { priceRange: '$$', n: 3, b: true },
      { priceRange: '$$', n: 3, b: true },
    ],
    ['nested, in lists', { s: [{ n: '{{telephone}}' }] }, { s: [{ n: '+81 3-1234-5678' }] }],
    ['unknown names stay as written', { x: '{{nothing}}' }, { x: '{{nothing}}' }],
  ])('%s', (_what, template, expected) => {
    expect(renderTemplate(template as never, values)).toEqual(expected);
  });
});

describe('checkTemplate', () => {
  it.each<[string, string, string | null]>([
    ['the default', DEFAULT_SCHEMA_TEMPLATE_TEXT, null],
    ['empty', '  ', templateMessages.required],
    ['broken JSON', '{"name": "{{name}}",}', templateMessages.invalidJson],
    ['a list', '[1]', templateMessages.notObject],
    ['a text', '"x"', templateMessages.notObject],
    [
      'an unknown placeholder',
      '{"a": "{{foo}} {{foo}} {{bar}}"}',
      templateMessages.unknownPlaceholder(['foo', 'bar']),
    ],
    ['too long', `{"a": "${'x'.repeat(20_000)}"}`, templateMessages.tooLong],
  ])('%s', (_what, text, message) => {
    const c = checkTemplate(text);
    expect(c.ok ? null : c.message).toBe(message);
  });
});

describe('hoursPeriodsOf (spec 2 §3 hours, read defensively)', () => {
  it.each<[string, unknown, HoursPeriod[]]>([
    ['not a list', null, []],
    [
      'a good entry',
      [
        {
          openDay: 'MONDAY',
          closeDay: 'MONDAY',
          openTime: { hours: 9, minutes: 30 },
          closeTime: { hours: 18 },
        },
      ],
      [period('MONDAY', [9, 30], [18, 0])],
    ],
    [
      'empty openTime, close 24',
      [{ openDay: 'TUESDAY', closeDay: 'TUESDAY', openTime: {}, closeTime: { hours: 24 } }],
      [period('TUESDAY', null, [24, 0])],
    ],
    [
      'no closeDay: the openDay',
      [{ openDay: 'SUNDAY', openTime: { hours: 10 }, closeTime: { hours: 12 } }],
      [period('SUNDAY', [10, 0], [12, 0])],
    ],
    [
      'an unknown day is skipped',
      [{ openDay: 'Someday', openTime: { hours: 1 }, closeTime: { hours: 2 } }],
      [],
    ],
    [
      'a bad time is skipped',
      [{ openDay: 'MONDAY', openTime: { hours: 25 }, closeTime: { hours: 2 } }, 'x', 3],
      [],
    ],
    ['no closeTime is skipped', [{ openDay: 'MONDAY', openTime: { hours: 1 } }], []],
  ])('%s', (_what, hours, expected) => {
    expect(hoursPeriodsOf(hours)).toEqual(expected);
  });
});

describe('storeFactsOf and sameAsOf', () => {
  const info: BasicInformation = {
    core_information: {
      id: '1',
      name: '店',
      primary_category: null,
      additional_categories: null,
      address: {
        postalCode: '150-0002',
        administrativeArea: '東京都',
        locality: '渋谷区',
        address1: '渋谷2-21-1',
        address2: null,
        address3: '6F',
        regionCode: 'JP',
      },
      map_marker: { latitude: 1, longitude: 2 },
      main_phone: '03-1111-2222',
      corporate_code: null,
    },
    contact_website_apps: { email: null, website_url: { url: 'https://a.example' } },
    business_details: {
      description: null,
      hours: [
        { openDay: 'MONDAY', closeDay: 'MONDAY', openTime: { hours: 9 }, closeTime: { hours: 17 } },
      ],
      temporarily_closed_hours: { dateOff: false },
      additional_hours_text: null,
      payment_options: [],
      price_range: null,
      impressum: null,
      pickup_and_delivery_services: [],
      neighborhood: null,
    },
    google_sync: {
      pending: 0,
      next_send_at: null,
      last_sent_at: null,
      refused: [],
      pulled_at: null,
    },
  };

  it('reads the basic information', () => {
    const f = storeFactsOf(info, { sameAs: ['s'], photos: [], offers: [] });
    expect(f).toEqual({
      name: '店',
      address: {
        postalCode: '150-0002',
        region: '東京都',
        locality: '渋谷区',
        lines: ['渋谷2-21-1', '6F'],
        country: 'JP',
      },
      geo: { latitude: 1, longitude: 2 },
      telephone: '03-1111-2222',
      hours: [period('MONDAY', [9, 0], [17, 0])],
      url: 'https://a.example',
      photos: [],
      sameAs: ['s'],
      offers: [],
    });
    expect(embedFieldValues(f)).toMatchObject({
      address: '〒150-0002 東京都渋谷区渋谷2-21-1 6F',
      hours: expect.stringMatching(/^月 09:00–17:00 \/ 火 定休日/) as unknown,
    });
    expect(
      storeFactsOf({ ...info, business_details: null }, { sameAs: [], photos: [], offers: [] })
        .hours,
    ).toEqual([]);
  });

  it.each<
    [
      string,
      { publisher_key: string; entity_id: string | null; location_name: string | null },
      string[],
    ]
  >([
    [
      'facebook page',
      { publisher_key: 'facebook', entity_id: '104857392017465', location_name: '店' },
      ['https://www.facebook.com/104857392017465'],
    ],
    [
      'instagram handle',
      { publisher_key: 'instagram', entity_id: '178', location_name: '@cafe_tenpo' },
      ['https://www.instagram.com/cafe_tenpo'],
    ],
    [
      'x handle',
      { publisher_key: 'twitter', entity_id: '9', location_name: '@tenpo_x' },
      ['https://x.com/tenpo_x'],
    ],
    [
      'instagram without a handle',
      { publisher_key: 'instagram', entity_id: '178', location_name: 'カフェ' },
      [],
    ],
    [
      'google is not a profile',
      { publisher_key: 'google_my_business', entity_id: '48', location_name: '@x' },
      [],
    ],
  ])('sameAs: %s', (_what, row, expected) => {
    expect(sameAsOf([row])).toEqual(expected);
  });
});

describe('onWebsite', () => {
  it.each<[string | null, string | null, boolean | null]>([
    ['https://cafe.example', 'https://cafe.example/shibuya', true],
    ['https://www.cafe.example', 'http://cafe.example/', true],
    ['http://cafe.example:8080', 'https://www.cafe.example', true],
    ['https://other.example', 'https://cafe.example', false],
    ['https://cafe.example.evil.test', 'https://cafe.example', false],
    [null, 'https://cafe.example', null],
    ['https://cafe.example', null, null],
    ['https://cafe.example', 'not a url', null],
  ])('%s on %s: %s', (page, site, expected) => {
    expect(onWebsite(page, site)).toBe(expected);
  });
});

describe('originOf', () => {
  it.each<[string | null, string | null]>([
    ['https://Cafe.Example/shibuya?x=1', 'https://cafe.example'],
    ['http://cafe.example:80/', 'http://cafe.example'],
    ['http://127.0.0.1:3404', 'http://127.0.0.1:3404'],
    ['https://user@cafe.example/', null],
    ['ftp://cafe.example', null],
    ['cafe.example', null],
    [null, null],
  ])('%s → %s', (url, expected) => {
    expect(originOf(url)).toBe(expected);
  });
});
