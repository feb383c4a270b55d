import type { PublisherKey } from '@tenpo/domain';
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

/** The draft a channel is sent for one post (button and kind where the channel has them). */
export function draftFor(
  post: Pick<PostRow, 'content' | 'button_type' | 'button_link'>,
  key: PublisherKey,
  media: MediaItem[],
  topic?: PostTopic | null,
): PostDraft {
  const button = buttonOf(post);
  const draft: PostDraft = {
    text: textFor(post, key, media.length),
    media,
    link: button?.action === 'CALL' ? null : post.button_link,
  };
  if (key === 'google_my_business') {
    if (button) draft.button = button;
    if (topic) draft.topic = topic;
  }
  return draft;
}
