// Any Graph node by id: a page, a photo or video, a post (read, edit, delete).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { field, type PathRouter } from '../shared/http';
import { unsupported } from './facebook.errors';
import { fbPages, igUsers } from './facebook.fixtures';
import { fieldList, g, graphTime, pick, type GraphCtx } from './facebook.graph-common';
import { pageNode, postNode, publisher, settle } from './facebook.graph-posts';

/**
 * Registered after Instagram's routes: its `GET (\\d+)` answers Instagram nodes and passes
 * the rest on to these.
 */
export function registerFacebookNodes(router: PathRouter, ctx: GraphCtx): void {
  const { rt, store, auth, pagesOf } = ctx;
  const s = () => store.data;

  router.add('GET', g('(\\d+)'), async (req, reply, [id]) => {
    const nodeId = id as string;
    if (fbPages.some((p) => p.id === nodeId)) {
      const t = await auth(req, reply, 'facebook', [nodeId]);
      if (t.kind === 'user' && !t.pageIds.includes(nodeId)) throw unsupported('get', nodeId);
      if (t.kind === 'page' && t.pageId !== nodeId) throw unsupported('get', nodeId);
      return pageNode(req, nodeId);
    }
    const photo = s().photos.find((p) => p.id === nodeId);
    const video = s().videos.find((v) => v.id === nodeId);
    const owner = photo?.pageId ?? video?.pageId;
    if (!owner) throw unsupported('get', nodeId);
    const t = await auth(req, reply, 'facebook', [owner]);
    if (!pagesOf(t).includes(owner)) throw unsupported('get', nodeId);
    if (photo)
      return pick(
        {
          id: photo.id,
          name: photo.caption,
          created_time: graphTime(photo.createdAt),
          width: photo.width,
          height: photo.height,
          link: `https://www.facebook.com/photo/?fbid=${photo.id}`,
        },
        fieldList(req),
        ['created_time', 'name'],
      );
    const v = video as NonNullable<typeof video>;
    const ready = v.readyAt <= rt.now();
    return pick(
      {
        id: v.id,
        title: v.title,
        description: v.description,
        created_time: graphTime(v.createdAt),
        status: {
          video_status: ready ? 'ready' : 'processing',
          processing_progress: ready ? 100 : 50,
          uploading_phase: { status: 'complete' },
          processing_phase: { status: ready ? 'complete' : 'in_progress' },
          publishing_phase: { status: ready ? 'complete' : 'not_started' },
        },
        permalink_url: `/${v.pageId}/videos/${v.id}/`,
        post_id: v.postId,
      },
      fieldList(req),
      ['created_time', 'description'],
    );
  });

  router.add('GET', g('(\\d+_\\d+)'), async (req, reply, [id]) => {
    const p = s().posts.find((x) => x.id === id && !x.deleted);
    if (!p) throw unsupported('get', id as string);
    const t = await auth(req, reply, 'facebook', [p.pageId]);
    if (!pagesOf(t).includes(p.pageId)) throw unsupported('get', id as string);
    if (settle(rt, p)) store.save();
    return postNode(req, p);
  });
  router.add('POST', g('(\\d+_\\d+)'), async (req, reply, [id]) => {
    const p = s().posts.find((x) => x.id === id && !x.deleted);
    if (!p) throw unsupported('post', id as string);
    await publisher(ctx, req, reply, p.pageId);
    const message = field(req, 'message');
    if (message !== undefined) p.message = message;
    if (field(req, 'is_published') === 'true') p.published = true;
    store.save();
    return { success: true };
  });
  const del = async (req: FastifyRequest, reply: FastifyReply, [id]: string[]) => {
    const nodeId = id as string;
    const p = s().posts.find(
      (x) => (x.id === nodeId || x.videoId === nodeId || x.photoIds.includes(nodeId)) && !x.deleted,
    );
    const loose = p ? undefined : s().photos.find((x) => x.id === nodeId);
    const pageId = p?.pageId ?? loose?.pageId;
    if (!pageId) {
      // Graph checks the token before it says the object does not exist.
      await auth(req, reply, 'facebook', []);
      throw unsupported('delete', nodeId);
    }
    const t = await auth(req, reply, 'facebook', [pageId]);
    if (t.kind !== 'page' || t.pageId !== pageId || !t.scopes.includes('pages_manage_posts'))
      throw unsupported('delete', nodeId);
    if (p) {
      p.deleted = true;
      for (const ph of s().photos)
        if (p.photoIds.includes(ph.id) && ph.blob) rt.blobs.remove(ph.blob);
    }
    if (loose) s().photos = s().photos.filter((x) => x !== loose);
    store.save();
    return { success: true };
  };
  router.add('DELETE', g('(\\d+_\\d+)'), del);
  router.add('DELETE', g('(\\d+)'), async (req, reply, params) => {
    const id = params[0] as string;
    if (s().igMedia.some((m) => m.id === id) || igUsers.some((u) => u.id === id)) {
      await auth(req, reply, 'instagram', []);
      throw unsupported('delete', id);
    }
    return del(req, reply, params);
  });
}
