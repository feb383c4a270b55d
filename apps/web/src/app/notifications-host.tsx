import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** The toasts' container: loaded with the first lazily loaded screen (ADR 0017). */
export function NotificationsHost() {
  return <Notifications position="top-right" autoClose={2000} />;
}
