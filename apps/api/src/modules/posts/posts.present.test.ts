import { describe, expect, it } from 'vitest';
import { ok, postListResponse, postSchema } from '@tenpo/domain';
import type { MediaStorage } from '../../storage';
import { isExactShape } from '../../lib/serializer';
import { presentPost } from './posts.present';
import type { PostBundle } from './posts.repo';

const storage = { browserUrl: async (key: string) => `/media/${key}` } as MediaStorage;

const at = '2026-11-29T01:02:03.000Z';
/** A post with every part filled: media, a topic, an approval, targets with parts and errors. */
const full: PostBundle = {
  post: {
    id: 7,
    submission_id: 's-1',
    store_id: 3,
    author_id: 2,
    content: '本日のおすすめ',
    button_type: 1,
    button_link: 'https://shop.example/menu',
    phone_number: null,
    channels: '["google_my_business","facebook"]',
    publish_at: at,
    delete_at: at,
    created_at: at,
    updated_at: at,
    post_type: 'offer',
    topic: JSON.stringify({
      title: 'セール',
      start: at,
      end: at,
      coupon_code: 'A1',
      redeem_link: null,
      terms: null,
    }),
  },
  media: [
    {
      id: 1,
      post_id: 7,
      position: 0,
      storage_key: 'posts/a.jpg',
      kind: 'photo',
      mime: 'image/jpeg',
      bytes: 1234,
      width: 10,
      height: 10,
      duration_ms: null,
      created_at: at,
    },
  ],
  targets: [
    {
      id: 11,
      post_id: 7,
      store_id: 3,
      publisher_key: 'facebook',
      state: 'published',
      idempotency_key: 'k',
      external_id: 'fb_1',
      external_url: 'https://facebook.example/1',
      error_kind: null,
      error_lines: '[]',
      attempts: 1,
      retries: 0,
      sent_at: at,
      published_at: at,
      remove_at: null,
      removed_at: null,
      created_at: at,
      updated_at: at,
      parts: JSON.stringify([
        { id: 'fb_1', url: 'https://facebook.example/1', state: 'published' },
      ]),
      account: 'facebook:1',
    },
    {
      id: 12,
      post_id: 7,
      store_id: 3,
      publisher_key: 'google_my_business',
      state: 'failed',
      idempotency_key: 'k2',
      external_id: null,
      external_url: null,
      error_kind: 'invalid',
      error_lines: JSON.stringify(['Google への投稿に失敗しました。']),
      attempts: 2,
      retries: 1,
      sent_at: null,
      published_at: null,
      remove_at: at,
      removed_at: null,
      created_at: at,
      updated_at: at,
      parts: null,
      account: null,
    },
  ],
  approval: {
    id: 5,
    post_id: 7,
    store_id: 3,
    state: 'rejected',
    author_id: 2,
    author_email: 'staff@tenpo.example',
    decided_by: 1,
    decided_by_email: 'owner@tenpo.example',
    decided_at: at,
    note: '写真を差し替えてください',
    created_at: at,
    updated_at: at,
    expires_at: at,
  },
};

describe('presentPost', () => {
  it('builds its keys in the schema’s order, so the list is written by one JSON.stringify', async () => {
    const post = await presentPost(full, storage);
    expect(postSchema.safeParse(post).success).toBe(true);
    expect(isExactShape(postSchema, post)).toBe(true);
    const plain = await presentPost({ ...full, media: [], approval: null }, storage);
    expect(isExactShape(postSchema, plain)).toBe(true);
    // The list's envelope as the route answers it.
    const page = {
      data: [post, plain],
      current_page: 1,
      last_page: 1,
      total: 2,
      per_page: 5,
      from: 1,
      to: 2,
      next_cursor: null,
      prev_cursor: null,
    };
    expect(isExactShape(ok(postListResponse), { status_code: 200, data: { data: page } })).toBe(
      true,
    );
  });
});
