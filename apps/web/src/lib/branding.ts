import { domainTitleResponseData } from '@tenpo/domain';
import { api } from './api-client';
import { createStore } from './store';

export const DEFAULT_TITLE = 'Tenpo';
export const DEFAULT_FAVICON = '/favicon.svg';

/** The white-label title, for the top bar. */
export const brandTitle = createStore(DEFAULT_TITLE);

/** The agency prefix: the first label of the host name (spec 1 §1). */
export const hostPrefix = (hostname: string): string | null => {
  if (/^[0-9.]+$/.test(hostname) || hostname.includes(':')) return null;
  const first = hostname.split('.')[0] ?? '';
  return /^[a-z0-9-]{1,63}$/i.test(first) ? first.toLowerCase() : null;
};

const setFavicon = (href: string): void => {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.href = href;
  link.removeAttribute('type');
};

/** A favicon image is used only if it loads. */
const tryFavicon = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const img = new Image();
    img.onload = () => {
      setFavicon(url);
      resolve(true);
    };
    img.onerror = () => resolve(false);
    img.src = url;
  });

/** White-label title and favicon by agency prefix; the defaults when the lookup fails. */
export const applyBranding = async (hostname = window.location.hostname): Promise<string> => {
  const prefix = hostPrefix(hostname);
  document.title = DEFAULT_TITLE;
  if (!prefix) return DEFAULT_TITLE;
  try {
    const r = await api<unknown>(`/domain/${encodeURIComponent(prefix)}/title`);
    const d = domainTitleResponseData.parse(r.data);
    document.title = d.title || DEFAULT_TITLE;
    brandTitle.set(document.title);
    if (d.favicon_url) await tryFavicon(d.favicon_url);
    return document.title;
  } catch {
    setFavicon(DEFAULT_FAVICON);
    return DEFAULT_TITLE;
  }
};
