import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/ui/page-title';
import { PaymentGate } from '../../components/ui/payment-panels';
import { ReviewsInbox } from '../../features/reviews/components/reviews-inbox';
import { useSelection } from '../../lib/selection';
import { useSession } from '../../lib/session';
import { usePaymentState } from '../payment-state';

/** The stores the inbox reads: the selected ones (multi-store screen), else the user's own. */
const useReviewStoreIds = (): number[] => {
  const { ids } = useSelection();
  const { user } = useSession();
  if (ids.length > 0) return ids;
  return user ? [user.id] : [];
};

/** /reviews (issue 25, docs/product/reviews.md): the selected stores' Google reviews. */
export function ReviewsRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const ids = useReviewStoreIds();
  return (
    <Stack>
      <PageTitle>{t('reviews.title')}</PageTitle>
      <PaymentGate state={payment}>
        <ReviewsInbox storeIds={ids} />
      </PaymentGate>
    </Stack>
  );
}
