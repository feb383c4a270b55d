import { Suspense, lazy, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { chunkRequested } from '../lib/chunk';
import { useStore } from '../lib/store';
import { theme } from './theme';

// Toasts are shown by lazily loaded screens only (public ones too), and outlive a navigation: the
// container is mounted above the router once the first of those screens is asked for (ADR 0017).
const NotificationsHost = lazy(() =>
  import('./notifications-host').then((m) => ({ default: m.NotificationsHost })),
);

/**
 * What every page needs. The query client comes with the routes that query (AppQueryProvider,
 * ADR 0017); `client` is for tests that render a feature without a route.
 */
export function Providers({
  client,
  children,
  env,
}: {
  client?: QueryClient;
  children: ReactNode;
  /** 'test' turns off transitions and portals (Mantine's testing setup). */
  env?: 'default' | 'test';
}) {
  // A test may render a feature without its route: the container is there from the start.
  const later = useStore(chunkRequested) || env === 'test';
  return (
    // The theme's CSS variables are written at build time into the stylesheet (css-variables.ts,
    // ADR 0079's addendum), not worked out in the page on every render of this provider.
    <MantineProvider theme={theme} env={env} withCssVariables={false}>
      {later && (
        <Suspense fallback={null}>
          <NotificationsHost />
        </Suspense>
      )}
      {client ? <QueryClientProvider client={client}>{children}</QueryClientProvider> : children}
    </MantineProvider>
  );
}
