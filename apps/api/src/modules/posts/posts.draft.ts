import { tokyoParts, type PublisherKey } from '@tenpo/domain';
import type { MediaItem, PostButton, PostDraft, PostTopic } from '../../channels/channel';
import type { PostRow } from '../../db/types';

/**
 * The spec's button types (spec 2 §3) as Google's call-to-action `actionType` (providers.md
 * §1.6; ADR 0025: the values follow Google's order, 3 = SHOP, the "Buy" button).
 */
export const BUTTON_ACTIONS: Readonly<Record<number, PostButton['action']>> = {
  1: 'BOOK',
  2: 'ORDER',
  3: 'SHOP',
  4: 'LEARN_MORE',
  5: 'SIGN_UP',
  6: 'CALL',
};

/** The post's button as a channel button (Google), or null for none / a link-less type. */
export function buttonOf(post: Pick<PostRow, 'button_type' | 'button_link'>): PostButton | null {
  const action = BUTTON_ACTIONS[post.button_type];
  if (!action) return null;
  if (action === 'CALL') return { action };
  return post.button_link ? { action, url: post.button_link } : null;
}

/**
 * The text a channel gets (ADR 0030). Google has buttons (callToAction); the others have none,
 * so a button's link is appended to the text where it would otherwise be lost: X always, and
 * Facebook when the post has media (a photo or video post has no link field; a text-only
 * Facebook post carries it as `link`, the page's link preview). Instagram captions do not link,
 * so nothing is appended there. Call now appends nothing (the phone is on the store's profile).
 * The settling step compares the provider's text with this same text.
 */
export function textFor(
  post: Pick<PostRow, 'content' | 'button_type' | 'button_link'>,
  key: PublisherKey,
  mediaCount: number,
): string {
  const button = buttonOf(post);
  const link = button && button.action !== 'CALL' ? (button.url ?? null) : null;
  if (!link) return post.content;
  if (key === 'twitter' || (key === 'facebook' && mediaCount > 0))
    return `${post.content}\n${link}`;
  return post.content;
}

/**
 * The draft a channel is sent for one post (button and kind where the channel has them), or
 * for one part of a split post: `withText` false for the parts after the first, which carry
 * their media alone (spec 2 §4, `splitPost`).
 */
export function draftFor(
  post: Pick<PostRow, 'content' | 'button_type' | 'button_link' | 'post_type' | 'topic'>,
  key: PublisherKey,
  media: MediaItem[],
  withText = true,
): PostDraft {
  const topic = topicOf(post);
  const button = buttonOf(post);
  const draft: PostDraft = {
    text: withText ? textFor(post, key, media.length) : '',
    media,
    link: !withText || button?.action === 'CALL' ? null : post.button_link,
  };
  if (key === 'google_my_business') {
    if (button) draft.button = button;
    if (topic) draft.topic = topic;
  }
  return draft;
}

/** A post's kind as stored (posts.topic JSON): instants in ISO, null where not given. */
export type StoredTopic = {
  title: string | null;
  start: string | null;
  end: string | null;
  coupon_code: string | null;
  redeem_link: string | null;
  terms: string | null;
};

/** An instant as Google takes event dates: the store's local (Tokyo) day and time. */
export const tokyoLocal = (iso: string) => {
  const p = tokyoParts(new Date(iso));
  return {
    date: { year: p.year, month: p.month, day: p.day },
    time: { hours: p.hour, minutes: p.minute },
  };
};

/** The stored kind as the channel's PostTopic (news → undefined: a plain STANDARD post). */
export function topicOf(post: Pick<PostRow, 'post_type' | 'topic'>): PostTopic | undefined {
  if (post.post_type === 'news' || !post.topic) return undefined;
  const t = JSON.parse(post.topic) as StoredTopic;
  if (!t.start || !t.end) return undefined;
  const base = { title: t.title ?? '', start: tokyoLocal(t.start), end: tokyoLocal(t.end) };
  return post.post_type === 'event'
    ? { type: 'event', ...base }
    : {
        type: 'offer',
        ...base,
        couponCode: t.coupon_code,
        redeemUrl: t.redeem_link,
        terms: t.terms,
      };
}
