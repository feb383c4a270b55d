// Photos and videos a page uploads on the Graph API (by file or by URL Meta fetches).
import { field, numericId, type PathRouter } from '../shared/http';
import { isVideo, probeMedia, type LoadedMedia, type MediaInfo } from '../shared/media';
import { filesOf } from '../shared/multipart';
import { graphError } from './facebook.errors';
import { g, type GraphCtx } from './facebook.graph-common';
import { newPostId, publisher, scheduleOf } from './facebook.graph-posts';
import type { FbPost } from './facebook.state';

/** POST a page's photos: an unpublished upload to attach later, or a photo post. */
export function registerFacebookPhotos(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store, loadMedia } = ctx;
  const s = () => store.data;

  router.add('POST', g('(\\d+)/photos'), async (req, reply, [pageId]) => {
    await publisher(ctx, req, reply, pageId as string);
    const url = field(req, 'url');
    const file = filesOf(req.body).source;
    let info: MediaInfo | undefined;
    let bytes: Buffer | undefined;
    let got: LoadedMedia | undefined;
    if (file) {
      bytes = file.data;
      info = probeMedia(bytes);
    } else if (url) {
      got = await loadMedia(url, 'facebook', 64 * 1024 * 1024);
      if (!got.ok)
        throw graphError(400, 324, '(#324) Missing or invalid image file', 'OAuthException');
      ({ info, bytes } = got);
    } else throw graphError(400, 324, '(#324) Requires upload file', 'OAuthException');
    // Graph API photo uploads: JPEG, BMP, PNG, GIF, TIFF (WebP kept: not listed, not known refused).
    if (!['jpeg', 'bmp', 'png', 'gif', 'tiff', 'webp'].includes(info.format))
      throw graphError(400, 324, '(#324) Missing or invalid image file', 'OAuthException');
    if (info.bytes > 10 * 1024 * 1024)
      throw graphError(400, 100, '(#100) Photo file is too large (max 10 MB)', 'OAuthException');
    const published = field(req, 'published') !== 'false';
    const scheduledAt = scheduleOf(rt, req);
    const id = numericId(16);
    const blob = bytes ? `fb-photo-${id}` : undefined;
    if (bytes && blob) rt.blobs.put(blob, bytes);
    const caption = field(req, 'message') ?? field(req, 'caption');
    const photo = {
      id,
      pageId: pageId as string,
      caption,
      url,
      blob,
      published: published || !!scheduledAt,
      temporary: field(req, 'temporary') === 'true',
      createdAt: rt.now(),
      width: info.width,
      height: info.height,
      ...(got?.ok && got.fetched ? { fetched: got.fetched } : {}),
    };
    if (got?.ok && got.entry) got.entry.object_id = id;
    s().photos.push(photo);
    if (published || scheduledAt) {
      const post: FbPost = {
        id: newPostId(pageId as string),
        pageId: pageId as string,
        message: caption,
        createdAt: rt.now(),
        published,
        scheduledAt,
        photoIds: [id],
        deleted: false,
        type: 'photo',
      };
      s().posts.push(post);
      Object.assign(photo, { postId: post.id });
      store.save();
      return { id, post_id: post.id };
    }
    store.save();
    return { id };
  });
}

/** POST a page's videos: a video post, ready once processing time has passed. */
export function registerFacebookVideos(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store, loadMedia } = ctx;
  const s = () => store.data;

  router.add('POST', g('(\\d+)/videos'), async (req, reply, [pageId]) => {
    // pages_manage_posts (checked by `publisher`) is all a Page video needs: the Video API
    // publishing guide lists pages_show_list, pages_read_engagement, pages_manage_posts.
    await publisher(ctx, req, reply, pageId as string);
    const url = field(req, 'file_url');
    const file = filesOf(req.body).source;
    let info: MediaInfo | undefined;
    let got: LoadedMedia | undefined;
    if (file) info = probeMedia(file.data);
    else if (url) {
      got = await loadMedia(url, 'facebook');
      if (!got.ok)
        throw graphError(
          400,
          6000,
          'There was a problem uploading your video file. Please try again with another file.',
          'OAuthException',
          { error_subcode: 1363030 },
        );
      info = rt.settings().fetchMedia
        ? got.info
        : { format: 'mp4', bytes: 1_000_000, durationSeconds: 15 };
    } else
      throw graphError(
        400,
        6000,
        'There was a problem uploading your video file. Please try again with another file.',
        'OAuthException',
        { error_subcode: 1363019 },
      );
    if (!isVideo(info.format))
      throw graphError(
        400,
        352,
        "(#352) Sorry, the video file you selected is in a format that we don't support.",
        'OAuthException',
      );
    const published = field(req, 'published') !== 'false';
    const scheduledAt = scheduleOf(rt, req);
    const id = numericId(16);
    const post: FbPost = {
      id: `${pageId}_${id}`,
      pageId: pageId as string,
      message: field(req, 'description'),
      createdAt: rt.now(),
      published,
      scheduledAt,
      photoIds: [],
      videoId: id,
      deleted: false,
      type: 'video',
    };
    s().videos.push({
      id,
      pageId: pageId as string,
      title: field(req, 'title'),
      description: field(req, 'description'),
      postId: post.id,
      createdAt: rt.now(),
      readyAt: rt.now() + rt.settings().facebook.videoProcessingMs,
      published,
      ...(got?.ok && got.fetched ? { fetched: got.fetched } : {}),
    });
    if (got?.ok && got.entry) got.entry.object_id = id;
    s().posts.push(post);
    store.save();
    return { id };
  });
}
