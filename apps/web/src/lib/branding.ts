import { api } from './api-client';
import { createStore, useStore } from './store';

export const DEFAULT_TITLE = 'Tenpo';
export const DEFAULT_FAVICON = '/favicon.svg';

/** The product name as this host shows it: the agency's title, else Tenpo. */
export const brandTitle = createStore(DEFAULT_TITLE);

/** The product name for texts that name it (the agency's title on a white-label host). */
export const useBrandTitle = (): string => useStore(brandTitle);

/**
 * The agency prefix: the first label of the host name (spec 1 §1). A host of one label
 * (`localhost`) or an IP address has no agency label, so it makes no lookup.
 */
export const hostPrefix = (hostname: string): string | null => {
  if (/^[0-9.]+$/.test(hostname) || hostname.includes(':')) return null;
  const labels = hostname.split('.');
  const first = labels[0] ?? '';
  if (labels.length < 2) return null;
  return /^[a-z0-9-]{1,63}$/i.test(first) ? first.toLowerCase() : null;
};

/** The document title: the screen's name, then the product name (the agency's, if any). */
export const pageTitle = (screen: string | null | undefined, brand: string): string =>
  screen ? `${screen} | ${brand}` : brand;

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

/**
 * White-label title and favicon by agency prefix; the defaults when the lookup fails. The
 * title goes to `brandTitle`; the document title follows it with the screen's name (Root).
 */
export const applyBranding = async (hostname = window.location.hostname): Promise<string> => {
  const prefix = hostPrefix(hostname);
  if (!prefix) return DEFAULT_TITLE;
  try {
    const [r, { domainTitleResponseData }] = await Promise.all([
      api<unknown>(`/domain/${encodeURIComponent(prefix)}/title`),
      import('./branding-schema'),
    ]);
    const d = domainTitleResponseData.parse(r.data);
    const title = d.title || DEFAULT_TITLE;
    brandTitle.set(title);
    if (d.favicon_url) await tryFavicon(d.favicon_url);
    return title;
  } catch {
    setFavicon(DEFAULT_FAVICON);
    return DEFAULT_TITLE;
  }
};
