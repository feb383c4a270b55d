import { z } from 'zod';
import {
  checkTopic,
  idText,
  ja,
  parsePostDate,
  POST_BUTTON,
  POST_BUTTON_VALUES,
  POST_FILE_CAP_BYTES,
  POST_LINK_BUTTONS,
  POST_MAX_FILES,
  PUBLISHER_KEYS,
  type PostTopicType,
  type PublisherKey,
} from '@tenpo/domain';
import type { StoredTopic } from './posts.draft';
import { fieldErrorsOf, validationError, type FieldErrors } from '../../lib/errors';
import type { FilePart } from '../../lib/uploads';

/** A medium of the request, in the order of its `medias[n]` index: a new file or one of ours. */
export type RequestMedium =
  | { from: 'file'; index: number; part: FilePart }
  | { from: 'url'; index: number; url: string };

export type PostRequest = {
  storeIds: number[];
  content: string;
  buttonType: number;
  buttonLink: string | null;
  phoneNumber: string | null;
  channels: PublisherKey[];
  publishAt: Date;
  deleteAt: Date | null;
  media: RequestMedium[];
};

/** A publish date up to this far in the past means "now" (the form's "now" left a moment ago). */
const NOW_GRACE_MS = 5 * 60_000;

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const HTTP_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

const fields = z.object({
  user_id: z
    .string({ error: ja.postStoreRequired })
    .transform(list)
    // Ids are digits only (issue 22 item 8): "0x2" or "2.0" is no store.
    .pipe(z.array(idText(ja.postStoreRequired)).min(1, { error: ja.postStoreRequired })),
  content: z
    .string({ error: ja.postContentRequired })
    .trim()
    .min(1, { error: ja.postContentRequired }),
  button_type: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === '' ? 0 : Number(s)))
    .refine((n) => POST_BUTTON_VALUES.includes(n), { error: ja.postButtonTypeInvalid }),
  button_link: z
    .string()
    .optional()
    .transform((s) => s?.trim() || null),
  phone_number: z
    .string()
    .optional()
    .transform((s) => s?.trim() || null),
  shared_sns_type: z
    .string({ error: ja.postChannelRequired })
    .transform(list)
    .pipe(
      z
        .array(z.enum(PUBLISHER_KEYS, { error: ja.postChannelUnknown }))
        .min(1, { error: ja.postChannelRequired }),
    ),
  publish_date: z.string().optional(),
  delete_date: z.string().optional(),
});

/**
 * The basic checks of a post request (spec 2 §5 post form, §9), in one place: the store ids,
 * content, button and link, channels, the Tokyo "now or later" dates and the file count and cap.
 * The media and per-channel rules of packages/domain (`checkPost`, `checkMedia`, issue 9 part 1)
 * are to be called from here when they land. Throws a 422 with every field's messages.
 */
export function validatePostRequest(
  raw: Record<string, string>,
  media: RequestMedium[],
  now: Date,
): PostRequest {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    const l = (errors[field] ??= []);
    if (!l.includes(message)) l.push(message);
  };
  const parsed = fields.safeParse(raw);
  if (!parsed.success)
    for (const [field, messages] of Object.entries(fieldErrorsOf(parsed.error)))
      for (const m of messages) add(field, m);

  const date = (field: 'publish_date' | 'delete_date'): Date | null => {
    const text = raw[field]?.trim();
    if (!text) return null;
    const d = parsePostDate(text);
    if (!d) add(field, ja.postDateFormat);
    else if (d.getTime() < now.getTime() - (field === 'publish_date' ? NOW_GRACE_MS : 0))
      add(field, field === 'publish_date' ? ja.postDateFromNow : ja.postDeleteFromNow);
    return d;
  };
  const publishAt = date('publish_date');
  const deleteAt = date('delete_date');
  if (publishAt && deleteAt && deleteAt.getTime() <= Math.max(publishAt.getTime(), now.getTime()))
    add('delete_date', ja.postDeleteAfterPublish);

  if (parsed.success) {
    const { button_type: type, button_link: link, phone_number: phone } = parsed.data;
    if (POST_LINK_BUTTONS.includes(type)) {
      if (!link) add('button_link', ja.postButtonLinkRequired);
      else if (!HTTP_URL.test(link)) add('button_link', ja.postButtonLinkInvalid);
    }
    if (type === POST_BUTTON.callNow && !phone) add('phone_number', ja.postPhoneRequired);
  }

  if (media.length > POST_MAX_FILES) add('medias', ja.postTooManyFiles(POST_MAX_FILES));
  for (const m of media) {
    if (m.from !== 'file') continue;
    if (!m.part.ok) {
      for (const line of Object.values(m.part.error.errors).flat()) add(`medias.${m.index}`, line);
      if (Object.keys(m.part.error.errors).length === 0)
        add(`medias.${m.index}`, m.part.error.message);
    } else if (m.part.upload.size > POST_FILE_CAP_BYTES)
      add(`medias.${m.index}`, ja.postFileTooLarge);
  }

  if (Object.keys(errors).length > 0 || !parsed.success) throw validationError(errors);
  const d = parsed.data;
  return {
    storeIds: [...new Set(d.user_id)],
    content: d.content,
    buttonType: d.button_type,
    buttonLink: POST_LINK_BUTTONS.includes(d.button_type) ? d.button_link : null,
    phoneNumber: d.button_type === POST_BUTTON.callNow ? d.phone_number : null,
    channels: [...new Set(d.shared_sns_type)],
    publishAt: publishAt && publishAt > now ? publishAt : now,
    deleteAt,
    media: [...media].sort((a, b) => a.index - b.index),
  };
}

/**
 * The fields of an offer, event or news post (spec 2 §3; ADR 0030), by domain's `checkTopic`
 * (the form's own rule): title and Tokyo start/end for events and offers, an offer's coupon
 * code, redeem link and terms. News carries none (a STANDARD post). Throws a 422 with every
 * field's Japanese messages.
 */
export function validateTopic(
  type: PostTopicType,
  raw: Record<string, string | undefined>,
  now: Date,
): StoredTopic | null {
  if (type === 'news') return null;
  const { errors, topic } = checkTopic(type, raw, now);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const instant = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return { ...topic, start: instant(topic.start), end: instant(topic.end) };
}
