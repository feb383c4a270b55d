import { Alert, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PaymentGate } from '../../components/ui/payment-panels';
import { ApiError } from '../../lib/api-client';
import { postCall, postKeys } from '../../features/posts/api/posts-api';
import { PostEditor } from '../../features/posts/components/post-editor';
import { postErrorLines } from '../../features/posts/components/post-errors';
import { usePaymentState } from '../payment-state';
import { useMainPhone, usePostChannels, usePostStoreIds } from './post-setup';
import { PageTitle } from '../../components/ui/page-title';

/** /post/{id} (spec 2 §2): the post form prefilled from an existing post, to post a copy. */
export function PostCopyRoute() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const payment = usePaymentState();
  const ids = usePostStoreIds();
  const { loading, error, channels } = usePostChannels(ids);
  const phone = useMainPhone(ids[0]);
  const post = useQuery({
    queryKey: postKeys.one(id, ids.join(',')),
    queryFn: () => postCall(id, ids),
    enabled: ids.length > 0,
    retry: false,
    gcTime: 0,
  });
  return (
    <Stack maw={960}>
      <PageTitle>{t('posts.copyTitle')}</PageTitle>
      <Text c="dimmed" size="sm">
        {t('posts.copyHint')}
      </Text>
      <PaymentGate state={payment}>
        {/* An id that is no post of these stores: say so, not a generic error (issue 23 item 13). */}
        {(post.isError && post.error instanceof ApiError && post.error.status === 404) ||
        (post.isSuccess && post.data === null) ? (
          <Alert color="yellow" variant="light">
            {t('posts.notFound')}
          </Alert>
        ) : post.isError ? (
          <Alert color="red" variant="light" style={{ whiteSpace: 'pre-line' }}>
            {postErrorLines(post.error).join('\n')}
          </Alert>
        ) : (
          <PostEditor
            key={`${id}:${ids.join(',')}:${post.dataUpdatedAt}`}
            storeIds={ids}
            channels={channels}
            loading={loading || phone.isPending || post.isPending}
            failed={error !== null}
            mainPhone={phone.data ?? null}
            initial={post.data ?? null}
          />
        )}
      </PaymentGate>
    </Stack>
  );
}
