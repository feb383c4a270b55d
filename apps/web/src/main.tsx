import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/nprogress/styles.css';
import '@mantine/dropzone/styles.css';
import './i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Providers } from './app/providers';
import { routes } from './app/routes';
import { applyBranding } from './lib/branding';
import { isDev } from './lib/env';
import { createQueryClient } from './lib/query-client';

const router = createBrowserRouter(routes);
const queryClient = createQueryClient();

void applyBranding();

// A service worker is registered at the root (spec 1 §9).
if ('serviceWorker' in navigator && !isDev) {
  window.addEventListener('load', () => {
    void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Providers client={queryClient}>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
}
