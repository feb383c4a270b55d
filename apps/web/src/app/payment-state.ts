import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { accountInformationCall } from '../features/account/api/account-api';
import { isAccountManager, setUser, useSession } from '../lib/session';
import { useSelection } from '../lib/selection';
import type { PaymentState } from '@tenpo/domain';

/**
 * Whose payment state decides the panels: the selected store when one is selected and known
 * (manager, agency, group leader), else the signed-in user.
 */
export const usePaymentState = (): PaymentState | null => {
  const { user } = useSession();
  const sel = useSelection();
  if (!user) return null;
  const current = sel.stores.find((s) => s.id === sel.ids[0]);
  if (current) return current;
  if (isAccountManager(user)) return null;
  return user;
};

/**
 * After a payment, or a card registered (which clears a failed payment and retries the charge):
 * every view of the payment state (panels, menus, the selector's rows) reads it again.
 */
export const usePaidRefresh = () => {
  const qc = useQueryClient();
  const { user } = useSession();
  const manager = isAccountManager(user);
  return useCallback(() => {
    void qc.invalidateQueries({ queryKey: ['payments'] });
    void qc.invalidateQueries({ queryKey: ['stores'] });
    void qc.invalidateQueries({ queryKey: ['account-information'] });
    // The signed-in user's own state drives the panels of a shop or free-trial user.
    if (!manager)
      accountInformationCall().then(
        (r) => setUser(r.data),
        () => {},
      );
  }, [qc, manager]);
};
