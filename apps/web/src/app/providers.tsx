import type { ReactNode } from 'react';
import { MantineProvider, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';

export const theme = createTheme({
  primaryColor: 'blue',
  fontFamily:
    '"Hiragino Kaku Gothic ProN", "Hiragino Sans", "Noto Sans JP", "Noto Sans CJK JP", Meiryo, system-ui, sans-serif',
  headings: { fontWeight: '700' },
  defaultRadius: 'md',
  // Modals, menus and the side bar animate (spec 1 §9), unless the user asked for less motion.
  respectReducedMotion: true,
});

export function Providers({
  client,
  children,
  env,
}: {
  client: QueryClient;
  children: ReactNode;
  /** 'test' turns off transitions and portals (Mantine's testing setup). */
  env?: 'default' | 'test';
}) {
  return (
    <MantineProvider theme={theme} env={env}>
      <Notifications position="top-right" autoClose={2000} />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
