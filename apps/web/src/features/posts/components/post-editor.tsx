import { Alert, Center, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { postApprovalJa, type PublisherKey } from '@tenpo/domain';
import { useNavigate } from 'react-router';
import { ja } from '@/i18n/ja';
import type { Envelope } from '@/lib/api-client';
import { TOAST_MS } from '@/lib/timing';
import { createPostCall, postKeys, type PostRow } from '../api/posts-api';
import { PostForm } from './post-form';
import { toastPostError } from './post-errors';

/**
 * When some of the stores' posts wait for approval (ADR 0095), the answer says so: its message,
 * else the same words from its counts. Otherwise null (the usual success line).
 */
const createdMessage = (r: Envelope<unknown>): string | null => {
  const d = r.data as { post_count?: unknown; held_count?: unknown } | null;
  const held = typeof d?.held_count === 'number' ? d.held_count : 0;
  if (held === 0) return null;
  const total = typeof d?.post_count === 'number' ? d.post_count : held;
  return r.message ?? postApprovalJa.created(held, total);
};

/** The post form wired to POST /posts: success toast and the list; failure toast and stay. */
export function PostEditor({
  storeIds,
  channels,
  loading,
  failed,
  mainPhone,
  initial,
}: {
  storeIds: readonly number[];
  channels: readonly PublisherKey[];
  loading: boolean;
  failed: boolean;
  mainPhone: string | null;
  initial: PostRow | null;
}) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  if (loading)
    return (
      <Center py="xl">
        <Loader aria-label={ja.app.loading} />
      </Center>
    );
  if (failed)
    return (
      <Alert color="red" variant="light">
        {ja.posts.error}
      </Alert>
    );
  return (
    <PostForm
      storeIds={storeIds}
      channels={channels}
      mainPhone={mainPhone}
      initial={initial}
      onSubmit={async (input) => {
        let message: string = ja.posts.success;
        try {
          message = createdMessage(await createPostCall(input)) ?? message;
        } catch (e) {
          toastPostError(e);
          return false;
        }
        notifications.show({ color: 'teal', message, autoClose: TOAST_MS });
        void qc.invalidateQueries({ queryKey: postKeys.all });
        void navigate('/posts');
        return true;
      }}
    />
  );
}
