import type { ReactNode } from 'react';
import { Box, Center, LoadingOverlay, Paper } from '@mantine/core';
import { useGlobalLoading } from '../../lib/loading';

/**
 * The auth pages' card: a background image, a centred card and a loading overlay. In a file without the
 * router, so that /login's first render (app/login-entry.tsx) can use it too (ADR 0017).
 */
export function AuthCard({ children }: { children: ReactNode }) {
  const loading = useGlobalLoading();
  return (
    <Box
      mih="100vh"
      style={{
        backgroundImage: 'url(/images/auth-bg.svg)',
        backgroundSize: 'cover',
        backgroundPosition: 'center',
      }}
    >
      <LoadingOverlay visible={loading} zIndex={1000} overlayProps={{ blur: 1 }} />
      <Center mih="100vh" p="md">
        <Paper shadow="md" radius="md" p="xl" w="100%" maw={520}>
          {children}
        </Paper>
      </Center>
    </Box>
  );
}
