import { describe, expect, it } from 'vitest';
import { ja } from '../messages/ja';
import { checkTopic, TOPIC_LIMITS, type TopicInput } from './topic-rules';

// 2026-11-24 10:30:20 in Tokyo.
const NOW = new Date('2026-11-24T01:30:20Z');

const event: TopicInput = {
  title: '秋の試飲会',
  start_date: '2026-11-28 10:00:00',
  end_date: '2026-11-28 17:00:00',
};
const offer: TopicInput = {
  ...event,
  coupon_code: 'AUTUMN10',
  redeem_link: 'https://tenpo.example/coupon',
  terms: 'お一人様1回限り',
};

describe('checkTopic', () => {
  it('news carries no fields of its own', () => {
    expect(checkTopic('news', {}, NOW)).toEqual({
      errors: {},
      topic: {
        title: null,
        start: null,
        end: null,
        coupon_code: null,
        redeem_link: null,
        terms: null,
      },
    });
    // A title given to news is not a news field: ignored, not refused.
    expect(checkTopic('news', { title: 'x'.repeat(100) }, NOW).errors).toEqual({});
  });

  it('passes an event and an offer, with the dates read in Tokyo time', () => {
    const e = checkTopic('event', event, NOW);
    expect(e.errors).toEqual({});
    expect(new Date(e.topic.start as number).toISOString()).toBe('2026-11-28T01:00:00.000Z');
    expect(e.topic.coupon_code).toBeNull();
    const o = checkTopic('offer', offer, NOW);
    expect(o.errors).toEqual({});
    expect(o.topic).toMatchObject({ title: '秋の試飲会', coupon_code: 'AUTUMN10' });
  });

  it('an event ignores offer fields', () => {
    const r = checkTopic('event', { ...event, redeem_link: 'ftp://x' }, NOW);
    expect(r.errors).toEqual({});
    expect(r.topic.redeem_link).toBeNull();
  });

  it.each(['event', 'offer'] as const)('%s: requires a title, a start and an end', (type) => {
    expect(checkTopic(type, { title: '  ' }, NOW).errors).toEqual({
      title: [ja.topicTitleRequired],
      start_date: [ja.topicStartRequired],
      end_date: [ja.topicEndRequired],
    });
  });

  it.each<[string, TopicInput, Record<string, string[]>]>([
    [
      'a title over 58 characters',
      { title: 'あ'.repeat(TOPIC_LIMITS.titleMax + 1) },
      { title: [ja.topicTitleTooLong(58)] },
    ],
    [
      'a date that is not a date',
      { start_date: '2026-02-30 10:00:00' },
      { start_date: [ja.postDateFormat] },
    ],
    [
      'an end before the start',
      { end_date: '2026-11-28 09:00:00' },
      { end_date: [ja.topicEndBeforeStart] },
    ],
    [
      'an end in the past (Tokyo)',
      { start_date: '2026-11-20 10:00:00', end_date: '2026-11-24 10:29:00' },
      { end_date: [ja.topicEndPast] },
    ],
    [
      'a coupon over 58 characters',
      { coupon_code: 'C'.repeat(59) },
      { coupon_code: [ja.topicCouponTooLong(58)] },
    ],
    [
      'a redeem link that is not http(s)',
      { redeem_link: 'javascript:alert(1)' },
      { redeem_link: [ja.topicRedeemLinkInvalid] },
    ],
    [
      'terms over 5,000 characters',
      { terms: 'x'.repeat(5001) },
      { terms: [ja.topicTermsTooLong(5000)] },
    ],
  ])('offer: refuses %s', (_what, over, expected) => {
    expect(checkTopic('offer', { ...offer, ...over }, NOW).errors).toEqual(expected);
  });

  it('an end in the current minute counts as now', () => {
    const r = checkTopic(
      'event',
      { ...event, start_date: '2026-11-24 09:00:00', end_date: '2026-11-24 10:30:00' },
      NOW,
    );
    expect(r.errors).toEqual({});
  });
});
