import { RouterProvider, createBrowserRouter } from 'react-router';
import { followDocumentTitle } from './document-title';
import { routes } from './routes';

// Created when this module loads, so it starts from the location of that moment: after a
// sign-in on /login's first render, that is /login with a session (ADR 0017).
const router = createBrowserRouter(routes);
followDocumentTitle(router);

/** The whole app: every screen behind the router. */
export function RouterApp() {
  return <RouterProvider router={router} />;
}
