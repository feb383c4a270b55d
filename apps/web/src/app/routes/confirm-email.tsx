import { useSearchParams } from 'react-router';
import { ConfirmEmail } from '../../features/account/components/confirm-email';

/** /confirm-email?token=…: open whether signed in or not (the link may be opened anywhere). */
export function ConfirmEmailRoute() {
  const [params] = useSearchParams();
  return <ConfirmEmail token={params.get('token')} />;
}
