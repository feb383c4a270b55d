import '@mantine/core/styles.css';
import './app/small-screens.css';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { LoginEntry } from './app/login-entry';
import { Providers } from './app/providers';
import { applyBranding } from './lib/branding';
import { isDev } from './lib/env';
import { storage } from './lib/storage';

void applyBranding();

// A service worker is registered at the root (spec 1 §9).
if ('serviceWorker' in navigator && !isDev) {
  window.addEventListener('load', () => {
    void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });
}

const el = document.getElementById('root');
if (el) {
  const root = createRoot(el);
  const render = (node: ReactNode) =>
    root.render(
      <StrictMode>
        <Providers>{node}</Providers>
      </StrictMode>,
    );
  const startApp = () =>
    void import('./app/router-app').then(({ RouterApp }) => render(<RouterApp />));
  // /login without a token in this browser — most first visits — renders its form before the
  // router and the app arrive (ADR 0017); everything else, and /login with a token (a signed-in
  // browser, whose tab must see the login-error warning of spec 3 §4), starts the app at once.
  if (window.location.pathname === '/login' && storage.get('token') === null) {
    render(<LoginEntry onSignedIn={startApp} />);
  } else {
    startApp();
  }
}
