import {
  RouterProvider,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createRouter as createRouter,
  UNSAFE_hydrationRouteProperties as hydrationRouteProperties,
  UNSAFE_defaultMapRouteProperties as mapRouteProperties,
  type DataRouter,
} from 'react-router';
import { nextTask } from '../lib/next-task';
import { followDocumentTitle } from './document-title';
import { routes } from './routes';

/**
 * What `createBrowserRouter(routes)` does (react-router 8: `createRouter({ history, routes,
 * mapRouteProperties, hydrationRouteProperties }).initialize()`), in three tasks instead of one:
 * this module's evaluation (with its libraries'), the routes' matching tables, the first
 * navigation (its screen's lazy modules asked for). Together they were one task of 60–80 ms on
 * this machine, × 4 on a phone's CPU (ADR 0087).
 *
 * It starts from the location of that moment: after a sign-in on /login's first render, that is
 * /login with a session (ADR 0017).
 */
async function startRouter(): Promise<DataRouter> {
  await nextTask();
  const router = createRouter({
    history: createBrowserHistory(),
    routes,
    mapRouteProperties,
    hydrationRouteProperties,
  });
  await nextTask();
  router.initialize();
  followDocumentTitle(router);
  // Ready once the router has matched the first location and loaded its screen's code (its lazy
  // routes): main.tsx renders the app after it, in a transition (ADR 0085).
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  return router;
}

export const routerReady: Promise<DataRouter> = startRouter();

/** The whole app: every screen behind the router. */
export function RouterApp({ router }: { router: DataRouter }) {
  return <RouterProvider router={router} />;
}
