import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import { PostsList } from '../../features/posts/components/posts-list';
import { useSelection } from '../../lib/selection';
import { usePaymentState } from '../payment-state';
import { usePostStoreIds } from './post-setup';
import { PageTitle } from '../../components/ui/page-title';

/** /posts (spec 2 §2): the posts of the selected store(s). */
export function PostsRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const ids = usePostStoreIds();
  const { stores } = useSelection();
  return (
    <Stack>
      <PageTitle>{t('posts.listTitle')}</PageTitle>
      <PaymentGate state={payment}>
        <PostsList key={ids.join(',')} storeIds={ids} stores={stores} />
      </PaymentGate>
    </Stack>
  );
}
