import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaymentGate } from '../../components/ui/payment-panels';
import { PostEditor } from '../../features/posts/components/post-editor';
import { usePaymentState } from '../payment-state';
import { useMainPhone, usePostChannels, usePostStoreIds } from './post-setup';
import { PageTitle } from '../../components/ui/page-title';

/** /create-post (spec 2 §2): the tabbed post form for the selected store(s). */
export function CreatePostRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const ids = usePostStoreIds();
  const { loading, error, channels } = usePostChannels(ids);
  const phone = useMainPhone(ids[0]);
  return (
    <Stack maw={960}>
      <PageTitle>{t('posts.createTitle')}</PageTitle>
      <PaymentGate state={payment}>
        <PostEditor
          key={ids.join(',')}
          storeIds={ids}
          channels={channels}
          loading={loading || phone.isPending}
          failed={error !== null}
          mainPhone={phone.data ?? null}
          initial={null}
        />
      </PaymentGate>
    </Stack>
  );
}
