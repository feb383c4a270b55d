import { checkPost, ja, type MediaMeta, type PostTopicType, type PostView } from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import type { Clock } from '../../lib/clock';
import { validationError } from '../../lib/errors';
import { inspectMedia } from '../../media/inspect';
import { isMediaKey, MEDIA_PATH_PREFIX, type MediaStorage } from '../../storage';
import type { StoredTopic } from './posts.draft';
import {
  validatePostRequest,
  validateTopic,
  type PostRequest,
  type RequestMedium,
} from './posts.validate';
import type { ResolvedMedium } from './posts.create';

/** One submission of the post form, its stores already authorised by the route. */
export type Submission = {
  actor: UserRow;
  stores: UserRow[];
  fields: Record<string, string>;
  media: RequestMedium[];
  /** A Google news, event or offer post (its own paths); none: a post to the ticked channels. */
  kind?: PostTopicType;
};

export type Submitted = {
  submission_id: string;
  post_count: number;
  held_count: number;
  posts: PostView[];
  notes: string[];
};

/** The existing object a `medias[n]` URL names: only our own `/uploads/` objects. */
export const keyOfUrl = (url: string, publicUrl: string): string | null => {
  let path = url.trim();
  if (path.startsWith(publicUrl)) path = path.slice(publicUrl.length);
  path = path.split('?')[0] ?? '';
  if (!path.startsWith(MEDIA_PATH_PREFIX)) return null;
  const key = decodeURIComponent(path.slice(MEDIA_PATH_PREFIX.length));
  return isMediaKey(key) ? key : null;
};

/**
 * The post form's path after the route (which parsed the body and authorised the stores):
 * validate the form, check every store × channel is connected, resolve each medium (a file just
 * stored, or one of the posting stores' own media by URL), measure each from its bytes and check
 * the post against every target channel's rules, then create it with its jobs. A refusal is a
 * 422 with field messages; the route's multipart reader deletes the files it stored.
 */
export function createSubmit(deps: {
  storage: MediaStorage;
  clock: Clock;
  publicUrl: string;
  checkConnected: (
    stores: UserRow[],
    channels: PostRequest['channels'],
  ) => Promise<Map<string, string | null>>;
  mediaOwnedBy: (key: string, stores: readonly UserRow[]) => Promise<boolean>;
  create: (
    actor: UserRow,
    stores: UserRow[],
    input: PostRequest,
    media: ResolvedMedium[],
    kind: { type: PostTopicType; topic: StoredTopic | null } | undefined,
    known: Map<string, string | null>,
  ) => Promise<Submitted>;
}) {
  const { storage, clock } = deps;

  /** A `medias[n]` value: a file stored by this request, or a URL of the stores' own media. */
  async function resolve(
    media: PostRequest['media'],
    stores: UserRow[],
  ): Promise<{ resolved: ResolvedMedium[]; names: string[] }> {
    const resolved: ResolvedMedium[] = [];
    const names: string[] = [];
    for (const m of media) {
      if (m.from === 'file') {
        if (!m.part.ok) throw m.part.error;
        const u = m.part.upload;
        names.push(u.filename);
        resolved.push({
          storage_key: u.key,
          kind: u.kind,
          mime: u.contentType,
          bytes: u.size,
          width: null,
          height: null,
          duration_ms: null,
        });
        continue;
      }
      const key = keyOfUrl(m.url, deps.publicUrl);
      // Only the posting stores' own media (issue 22 item 9): another tenant's upload is
      // refused exactly like one that does not exist.
      const owned = key !== null && (await deps.mediaOwnedBy(key, stores));
      const stat = key && owned ? await storage.stat(key) : null;
      if (!key || !stat) throw validationError({ [`medias.${m.index}`]: [ja.postMediaNotFound] });
      names.push(key.split('/').pop() ?? key);
      resolved.push({
        storage_key: key,
        kind: stat.contentType.startsWith('video/') ? 'video' : 'photo',
        mime: stat.contentType,
        bytes: stat.size,
        width: null,
        height: null,
        duration_ms: null,
      });
    }
    return { resolved, names };
  }

  /**
   * Every medium is measured from its stored bytes (never its name or the browser's word), and
   * the post is checked against the rules of each target channel (packages/domain/src/posts,
   * ADR 0025): its media table, text lengths, buttons and dates.
   */
  async function inspectAndCheck(
    fields: Record<string, string>,
    input: PostRequest,
    resolved: ResolvedMedium[],
    names: string[],
  ): Promise<void> {
    const metas: MediaMeta[] = [];
    for (const [i, m] of resolved.entries()) {
      const seen = await inspectMedia(await storage.open(m.storage_key), names[i] ?? m.storage_key);
      if (!seen.ok) throw validationError({ [`medias.${i}`]: [seen.message] });
      metas.push(seen.meta);
      m.width = seen.meta.width;
      m.height = seen.meta.height;
      m.duration_ms =
        seen.meta.durationSec === undefined ? null : Math.round(seen.meta.durationSec * 1000);
    }
    const errors = checkPost(
      {
        content: input.content,
        button_type: input.buttonType,
        button_link: input.buttonLink,
        phone_number: input.phoneNumber,
        shared_sns_type: input.channels,
        publish_date: fields.publish_date ?? null,
        delete_date: fields.delete_date ?? null,
        // Connection per store is checked (and named) by checkConnected.
        connected: input.channels,
      },
      metas,
      clock.now(),
    );
    // The publish date's grace ("now" that left a moment ago) is validatePostRequest's to judge.
    delete errors.publish_date;
    if (Object.keys(errors).length > 0) throw validationError(errors);
  }

  return async function submit({ actor, stores, fields, media, kind }: Submission) {
    if (kind && (fields.shared_sns_type ?? 'google_my_business') !== 'google_my_business')
      throw validationError({ shared_sns_type: [ja.topicGoogleOnly] });
    const form = kind ? { ...fields, shared_sns_type: 'google_my_business' } : fields;
    const input = validatePostRequest(form, media, clock.now());
    const topic = kind ? validateTopic(kind, form, clock.now()) : null;
    const accounts = await deps.checkConnected(stores, input.channels);
    const { resolved, names } = await resolve(input.media, stores);
    await inspectAndCheck(form, input, resolved, names);
    return deps.create(
      actor,
      stores,
      input,
      resolved,
      kind ? { type: kind, topic } : undefined,
      accounts,
    );
  };
}
