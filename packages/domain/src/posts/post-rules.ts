import { CHANNEL_LIMITS } from '../channels/limits';
import { ja } from '../messages/ja';
import { postFieldLabels } from '../messages/posts';
import { PUBLISHER_KEYS, PUBLISHERS, type PublisherKey } from '../publishers/publishers';
import { checkMedia, mediaKindOf, type MediaKind, type MediaMeta } from './media-rules';
import { textLength } from './text-length';
import { parseTokyoDateTime } from '../tokyo';

/**
 * Button types (spec 2 §3). The numbers follow Google's local-post ActionType order
 * (BOOK 1, ORDER 2, SHOP 3, LEARN_MORE 4, SIGN_UP 5), so the gap at 3 is SHOP, which Google's
 * own interface labels "Buy" (購入): the "Buy button" of spec 2 §4. The form does not offer it
 * (`OFFERED_BUTTON_TYPES`); a request that carries it is refused for Google and taken for the
 * other channels. Call now is 6 (Google's CALL, which takes no URL).
 */
export const BUTTON_TYPE = {
  none: 0,
  book: 1,
  orderOnline: 2,
  buy: 3,
  learnMore: 4,
  signUp: 5,
  callNow: 6,
} as const;
export type ButtonType = (typeof BUTTON_TYPE)[keyof typeof BUTTON_TYPE];
export const BUTTON_TYPES: readonly ButtonType[] = Object.values(BUTTON_TYPE);

/** What the post form offers, in the spec's order (call now only with a main phone). */
export const OFFERED_BUTTON_TYPES: readonly ButtonType[] = [0, 1, 2, 4, 5, 6];

/** Button types that need a link (every type but none and call now). */
export const LINK_BUTTON_TYPES: readonly ButtonType[] = [1, 2, 3, 4, 5];

/** Google local posts' `callToAction.actionType` for each button type (null: no button). */
export const GOOGLE_ACTION_TYPE: Readonly<Record<ButtonType, string | null>> = {
  0: null,
  1: 'BOOK',
  2: 'ORDER',
  3: 'SHOP',
  4: 'LEARN_MORE',
  5: 'SIGN_UP',
  6: 'CALL',
};

export const isButtonType = (n: unknown): n is ButtonType =>
  typeof n === 'number' && (BUTTON_TYPES as readonly number[]).includes(n);

/** A link a button may carry: an absolute http(s) URL with a host and no spaces. */
export const HTTP_URL_RE = /^https?:\/\/[^\s/?#.][^\s/?#]*(?:[/?#]\S*)?$/i;

/** How a channel treats a post, beyond its media table (spec 2 §4 channel behaviour notes). */
export type ChannelPostRules = {
  /** Instagram: a post needs a photo or video. */
  mediaRequired: boolean;
  /** Google: no Buy button. */
  refusedButtonTypes: readonly ButtonType[];
  /** Facebook and X: photos and videos together split the post. */
  splitsPhotoAndVideo: boolean;
  /** Instagram posts cannot be deleted: a removal date does nothing there (the form says so). */
  removable: boolean;
};

export const CHANNEL_POST_RULES: Readonly<Record<PublisherKey, ChannelPostRules>> = {
  google_my_business: {
    mediaRequired: false,
    refusedButtonTypes: [BUTTON_TYPE.buy],
    splitsPhotoAndVideo: false,
    removable: true,
  },
  facebook: {
    mediaRequired: false,
    refusedButtonTypes: [],
    splitsPhotoAndVideo: true,
    removable: true,
  },
  instagram: {
    mediaRequired: true,
    refusedButtonTypes: [],
    splitsPhotoAndVideo: false,
    removable: false,
  },
  twitter: {
    mediaRequired: false,
    refusedButtonTypes: [],
    splitsPhotoAndVideo: true,
    removable: true,
  },
};

/** One provider post of a split post. The text goes with the first part only. */
export type PostPart<T> = { media: T[]; withText: boolean };

/**
 * How one post goes out on a channel (spec 2 §4: "posting photo and video together to Facebook
 * or Twitter splits the post"). On a splitting channel the photos go together in the first part,
 * then each video in a part of its own (both providers take one video per post); elsewhere the
 * post is one part. A post without media is one part with no media.
 */
export function splitPost<T extends { kind: MediaKind; ext?: string }>(
  channel: PublisherKey,
  media: readonly T[],
): PostPart<T>[] {
  const isVideo = (m: T) =>
    (m.kind === 'unknown' && m.ext !== undefined ? mediaKindOf(m.ext) : m.kind) === 'video';
  const videos = media.filter(isVideo);
  const photos = media.filter((m) => !isVideo(m));
  if (!CHANNEL_POST_RULES[channel].splitsPhotoAndVideo || videos.length === 0 || media.length < 2)
    return [{ media: [...media], withText: true }];
  const groups: T[][] = [...(photos.length > 0 ? [photos] : []), ...videos.map((v) => [v])];
  return groups.map((g, i) => ({ media: g, withText: i === 0 }));
}

/**
 * "Now or later" (spec 2 §5), judged in Tokyo time to the minute: a date in the current minute
 * counts as now, so the form's prefilled "now" still passes when it is sent a few seconds later.
 */
export const isNowOrLater = (ms: number, now: Date): boolean =>
  Math.floor(ms / 60_000) >= Math.floor(now.getTime() / 60_000);

/** The post form as the API receives it (spec 2 §2 POST /posts), files aside. */
export type PostInput = {
  content: string;
  button_type: number;
  button_link?: string | null;
  phone_number?: string | null;
  /** Target channels (the comma-separated `shared_sns_type`, already split). */
  shared_sns_type: readonly string[];
  /** `yyyy-MM-dd HH:mm:ss` Asia/Tokyo; empty or absent: now. */
  publish_date?: string | null;
  /** `yyyy-MM-dd HH:mm:ss` Asia/Tokyo; empty or absent: never removed. */
  delete_date?: string | null;
  /** The publishers the store has connected (status 1 or 2): a target must be one of them. */
  connected: readonly PublisherKey[];
};

/** Field errors in the shape of the API's 422 envelope (`errors`). */
export type FieldErrors = Record<string, string[]>;

const FIELD = postFieldLabels;

const labelOf = (key: PublisherKey): string => PUBLISHERS.find((p) => p.key === key)?.label ?? key;

const isPublisherKey = (s: string): s is PublisherKey =>
  (PUBLISHER_KEYS as readonly string[]).includes(s);

/**
 * Every post-form rule (spec 2 §4, §5; spec 1 §9) for the given targets: content required and
 * within each target's text limit (X: 160, weighted); button type known, a link type with an
 * http(s) link, call now with a phone, no Buy button with Google; targets known and connected;
 * Instagram with media; the media rules of every target (`checkMedia`); publish and removal dates
 * valid, now or later in Tokyo time, removal after publication. `now` is passed in so that the
 * browser and the server judge the same instant the same way.
 *
 * Returns field errors (`content`, `button_type`, `button_link`, `phone_number`,
 * `shared_sns_type`, `medias`, `publish_date`, `delete_date`), each message once; `{}` when
 * the post may go.
 */
export function checkPost(input: PostInput, media: readonly MediaMeta[], now: Date): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, msg: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(msg)) list.push(msg);
  };

  const targets: PublisherKey[] = [];
  for (const raw of input.shared_sns_type) {
    const key = raw.trim();
    if (!key) continue;
    if (!isPublisherKey(key)) add('shared_sns_type', ja.invalidChoice(FIELD.shared_sns_type));
    else if (!input.connected.includes(key))
      add('shared_sns_type', ja.channelNotConnected(labelOf(key)));
    else if (!targets.includes(key)) targets.push(key);
  }
  if (targets.length === 0 && !errors.shared_sns_type)
    add('shared_sns_type', ja.postTargetsRequired);

  const content = input.content ?? '';
  if (content.trim() === '') add('content', ja.required(FIELD.content));
  else
    for (const t of targets) {
      const l = CHANNEL_LIMITS[t];
      if (textLength(content, l.textCounting) > l.textMaxLength)
        add(
          'content',
          l.textCounting === 'x_weighted'
            ? ja.postTextTooLongWeighted(labelOf(t), l.textMaxLength)
            : ja.postTextTooLong(labelOf(t), l.textMaxLength),
        );
    }

  const bt = input.button_type;
  if (!isButtonType(bt)) add('button_type', ja.invalidChoice(FIELD.button_type));
  else {
    if (LINK_BUTTON_TYPES.includes(bt)) {
      const link = (input.button_link ?? '').trim();
      if (link === '') add('button_link', ja.required(FIELD.button_link));
      else if (!HTTP_URL_RE.test(link)) add('button_link', ja.postLinkNotHttp);
    }
    if (bt === BUTTON_TYPE.callNow && (input.phone_number ?? '').trim() === '')
      add('phone_number', ja.postCallNowNeedsPhone);
    for (const t of targets)
      if (CHANNEL_POST_RULES[t].refusedButtonTypes.includes(bt))
        add('button_type', ja.postButtonNotWith(labelOf(t)));
  }

  for (const t of targets) {
    if (CHANNEL_POST_RULES[t].mediaRequired && media.length === 0)
      add('medias', ja.postMediaRequired(labelOf(t)));
    for (const msg of checkMedia(t, media)) add('medias', msg);
  }

  const date = (field: 'publish_date' | 'delete_date'): number | null => {
    const raw = (input[field] ?? '').trim();
    if (raw === '') return null;
    const ms = parseTokyoDateTime(raw);
    if (ms === null) add(field, ja.postDateFormat);
    else if (!isNowOrLater(ms, now)) add(field, ja.postDateFromNow);
    return ms;
  };
  const publishAt = date('publish_date');
  const deleteAt = date('delete_date');
  const from = publishAt ?? now.getTime();
  if (deleteAt !== null && !errors.delete_date && deleteAt <= from)
    add('delete_date', ja.postDeleteAfterPublish);

  return errors;
}
