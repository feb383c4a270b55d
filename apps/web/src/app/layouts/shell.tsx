import '@mantine/dropzone/styles.css';
import { AppQueryProvider } from '../query-provider';
import { AdminLayout } from './admin-layout';

/**
 * The signed-in part of the app, loaded only when a signed-in route is visited: it brings the
 * query client and the shell's styles, which the public pages never load (ADR 0017).
 */
export function ShellLayout() {
  return (
    <AppQueryProvider>
      <AdminLayout />
    </AppQueryProvider>
  );
}
