import { isAccountManager, useSession } from '../lib/session';
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
