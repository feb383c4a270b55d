import { Alert, Center, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { PublisherKey } from '@tenpo/domain';
import { useNavigate } from 'react-router';
import { ja } from '@/i18n/ja';
import { TOAST_MS } from '@/lib/timing';
import { createPostCall, postKeys, type PostRow } from '../api/posts-api';
import { PostForm } from './post-form';
import { toastPostError } from './post-errors';

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
        try {
          await createPostCall(input);
        } catch (e) {
          toastPostError(e);
          return false;
        }
        notifications.show({ color: 'teal', message: ja.posts.success, autoClose: TOAST_MS });
        void qc.invalidateQueries({ queryKey: postKeys.all });
        void navigate('/posts');
        return true;
      }}
    />
  );
}
