import { Box, Center, LoadingOverlay, Paper } from '@mantine/core';
import { Outlet } from 'react-router';
import { useGlobalLoading } from '../../lib/loading';

/** The auth pages' layout: a background image, a centred card and a loading overlay. */
export function BlankLayout() {
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
          <Outlet />
        </Paper>
      </Center>
    </Box>
  );
}
