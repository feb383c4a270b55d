import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import { PostsList } from '../../features/posts/components/posts-list';
import { useSelection } from '../../lib/selection';
import { usePaymentState } from '../payment-state';
import { usePostStoreIds } from './post-setup';

/** /posts (spec 2 §2): the posts of the selected store(s). */
export function PostsRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const ids = usePostStoreIds();
  const { stores } = useSelection();
  return (
    <Stack>
      <Title order={2}>{t('posts.listTitle')}</Title>
      <PaymentGate state={payment}>
        <PostsList key={ids.join(',')} storeIds={ids} stores={stores} />
      </PaymentGate>
    </Stack>
  );
}
