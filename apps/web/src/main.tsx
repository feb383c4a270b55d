import '@mantine/core/styles.css';
// After Mantine's own: the theme's variables that differ from its defaults (ADR 0079).
import 'virtual:theme-css-variables.css';
import './app/small-screens.css';
import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { LoginEntry } from './app/login-entry';
import { Providers } from './app/providers';
import { applyBranding } from './lib/branding';
import { isDev } from './lib/env';
import { refreshSession } from './lib/session';
import { storage } from './lib/storage';

void applyBranding();

// A service worker is registered at the root (spec 1 §9).
if ('serviceWorker' in navigator && !isDev) {
  window.addEventListener('load', () => {
    void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });
}

/** Pages that neither need nor restore a session (spec 1 §2; ADR 0065). */
const LEAVE_SESSION_ALONE = new Set(['/facebook-terms-and-privacy', '/confirm-email']);

const el = document.getElementById('root');
if (el) {
  const root = createRoot(el);
  // A transition: React builds the first screen in slices of a few milliseconds instead of one
  // long task (on a phone's CPU a login form was 300 ms of blocked main thread, the app's first
  // screen more). The router is ready before it renders (`routerReady`): RouterProvider reads
  // the router's state as it renders and subscribes only once it has committed, so a lazily
  // loaded screen that arrived between the two was never drawn (ADR 0085).
  const render = (node: ReactNode) =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <Providers>{node}</Providers>
        </StrictMode>,
      ),
    );
  const startApp = () =>
    void import('./app/router-app').then(async ({ RouterApp, routerReady }) => {
      render(<RouterApp router={await routerReady} />);
    });
  // /login without a token in this browser — most first visits — renders its form before the
  // router and the app arrive (ADR 0017); everything else, and /login with a token (a signed-in
  // browser, whose tab must see the login-error warning of spec 3 §4), starts the app at once.
  if (window.location.pathname === '/login' && storage.get('token') === null) {
    render(<LoginEntry onSignedIn={startApp} />);
  } else {
    // A browser with a token restores its session (GET /refresh-token) while the router and
    // the screen's code load, not after: the guards that ask for it (AdminLayout, PublicOnly)
    // share this rotation, or find the session restored (ADR 0079). The privacy page and the
    // mailed e-mail link leave the session alone.
    if (storage.get('token') !== null && !LEAVE_SESSION_ALONE.has(window.location.pathname)) {
      void refreshSession();
    }
    startApp();
  }
}
