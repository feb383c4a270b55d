import { RouterProvider, createBrowserRouter } from 'react-router';
import { followDocumentTitle } from './document-title';
import { routes } from './routes';

// Created when this module loads, so it starts from the location of that moment: after a
// sign-in on /login's first render, that is /login with a session (ADR 0017).
const router = createBrowserRouter(routes);
followDocumentTitle(router);

/**
 * Settles once the router has matched the first location and loaded its screen's code (its
 * lazy routes): main.tsx renders the app after it, in a transition (ADR 0085).
 */
export const routerReady = new Promise<void>((resolve) => {
  if (router.state.initialized) return resolve();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    resolve();
  });
});

/** The whole app: every screen behind the router. */
export function RouterApp() {
  return <RouterProvider router={router} />;
}
