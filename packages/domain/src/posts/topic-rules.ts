import { ja } from '../messages/ja';
import type { PostTopicType } from '../post-calls/schemas';
import type { PublisherKey } from '../publishers/publishers';
import { parseTokyoDateTime } from '../tokyo';
import { HTTP_URL_RE, isNowOrLater, type FieldErrors } from './post-rules';

/**
 * Google's limits on an event or offer (providers.md §1.6; ADR 0030): a title and a coupon code
 * of 58 characters, terms of 5,000.
 */
export const TOPIC_LIMITS = { titleMax: 58, couponMax: 58, termsMax: 5000 } as const;

/** The fields each Google post type carries besides the post's own (spec 2 §3). */
export const TOPIC_FIELDS: Readonly<Record<PostTopicType, readonly TopicField[]>> = {
  news: [],
  event: ['title', 'start_date', 'end_date'],
  offer: ['title', 'start_date', 'end_date', 'coupon_code', 'redeem_link', 'terms'],
};
export type TopicField =
  | 'title'
  | 'start_date'
  | 'end_date'
  | 'coupon_code'
  | 'redeem_link'
  | 'terms';

/** An offer's, event's or news post's own fields as the form and the API receive them. */
export type TopicInput = Partial<Record<TopicField, string | null | undefined>>;

/** The checked fields: trimmed text or null, dates as epoch milliseconds. */
export type CheckedTopic = {
  title: string | null;
  start: number | null;
  end: number | null;
  coupon_code: string | null;
  redeem_link: string | null;
  terms: string | null;
};

const chars = (s: string) => [...s].length;

/**
 * The rules of an offer, event or news post's own fields (spec 2 §3; ADR 0030), for the form and
 * the server alike. News carries none (a STANDARD post). An event and an offer need a title (58
 * characters at most) and a start and end (`yyyy-MM-dd HH:mm:ss`, Asia/Tokyo), the end after
 * the start and now or later; an offer may add a coupon code (58), an http(s) redeem link and
 * terms (5,000). Fields of another type are ignored. `now` is passed in so that the browser and
 * the server judge the same instant the same way.
 *
 * Returns the field errors (each message once; `{}` when the fields may go) and the checked
 * values.
 */
export function checkTopic(
  type: PostTopicType,
  input: TopicInput,
  now: Date,
): { errors: FieldErrors; topic: CheckedTopic } {
  const errors: FieldErrors = {};
  const add = (field: TopicField, msg: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(msg)) list.push(msg);
  };
  const has = (f: TopicField) => TOPIC_FIELDS[type].includes(f);
  const text = (f: TopicField) => (has(f) ? (input[f] ?? '').trim() || null : null);

  const title = text('title');
  if (has('title')) {
    if (!title) add('title', ja.topicTitleRequired);
    else if (chars(title) > TOPIC_LIMITS.titleMax)
      add('title', ja.topicTitleTooLong(TOPIC_LIMITS.titleMax));
  }
  const date = (f: 'start_date' | 'end_date', missing: string): number | null => {
    if (!has(f)) return null;
    const v = text(f);
    if (!v) return (add(f, missing), null);
    const ms = parseTokyoDateTime(v);
    if (ms === null) add(f, ja.postDateFormat);
    return ms;
  };
  const start = date('start_date', ja.topicStartRequired);
  const end = date('end_date', ja.topicEndRequired);
  if (start !== null && end !== null && end <= start) add('end_date', ja.topicEndBeforeStart);
  else if (end !== null && !isNowOrLater(end, now)) add('end_date', ja.topicEndPast);

  const coupon = text('coupon_code');
  const link = text('redeem_link');
  const terms = text('terms');
  if (coupon && chars(coupon) > TOPIC_LIMITS.couponMax)
    add('coupon_code', ja.topicCouponTooLong(TOPIC_LIMITS.couponMax));
  if (link && !HTTP_URL_RE.test(link)) add('redeem_link', ja.topicRedeemLinkInvalid);
  if (terms && chars(terms) > TOPIC_LIMITS.termsMax)
    add('terms', ja.topicTermsTooLong(TOPIC_LIMITS.termsMax));

  return {
    errors,
    topic: { title, start, end, coupon_code: coupon, redeem_link: link, terms },
  };
}

/** The one channel whose posts have types (Google local posts' topicType; ADR 0030). */
export const TOPIC_CHANNEL = 'google_my_business' as const satisfies PublisherKey;
