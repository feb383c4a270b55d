import { Suspense, lazy, type ReactNode } from 'react';
import { MantineProvider, createTheme, type PaginationProps } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ja } from '../i18n/ja';
import { chunkRequested } from '../lib/chunk';
import { useStore } from '../lib/store';
import { PRIMARY_SHADE, cssVariablesResolver, variantColorResolver } from './theme-colors';

// Mantine's icon-only controls have no name of their own (or an English one): every instance
// gets its Japanese name here, so that no screen can forget it. (The password toggle needs state:
// see components/ui/password-field.tsx.) Plain theme entries rather than `Modal.extend`, so that
// the first load does not carry the components themselves (ADR 0017).
const pagingNames = {
  first: ja.a11y.firstPage,
  previous: ja.a11y.previousPage,
  next: ja.a11y.nextPage,
  last: ja.a11y.lastPage,
} as const;
const getControlProps: PaginationProps['getControlProps'] = (control) => ({
  'aria-label': pagingNames[control],
});

export const theme = createTheme({
  primaryColor: 'blue',
  // Text, links and buttons reach WCAG AA contrast (ADR 0073).
  primaryShade: { light: PRIMARY_SHADE, dark: PRIMARY_SHADE },
  variantColorResolver,
  fontFamily:
    '"Hiragino Kaku Gothic ProN", "Hiragino Sans", "Noto Sans JP", "Noto Sans CJK JP", Meiryo, system-ui, sans-serif',
  headings: { fontWeight: '700' },
  defaultRadius: 'md',
  // Modals, menus and the side bar animate (spec 1 §9), unless the user asked for less motion.
  respectReducedMotion: true,
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': ja.actions.close } } },
    Pagination: { defaultProps: { getControlProps } },
  },
});

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
    <MantineProvider theme={theme} env={env} cssVariablesResolver={cssVariablesResolver}>
      {later && (
        <Suspense fallback={null}>
          <NotificationsHost />
        </Suspense>
      )}
      {client ? <QueryClientProvider client={client}>{children}</QueryClientProvider> : children}
    </MantineProvider>
  );
}
