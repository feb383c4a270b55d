/* global self */
// Tenpo's service worker, registered at the root (spec 1 §9). It caches nothing: every request
// goes to the network as if no worker were there, so a deploy is never hidden behind a stale copy.
self.addEventListener('install', () => {
  self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
