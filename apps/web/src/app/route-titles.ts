import type { RouteObject } from 'react-router';

/**
 * The screen titles by path, for the first paint (ADR 0079): the build writes them to
 * `route-titles.json` beside index.html, and the server puts the title of the page asked for
 * into the loading screen, so that a phone shows which screen is coming before any script has
 * arrived. Paths with parameters, and the catch-all, have no entry.
 */
export type RouteTitles = Record<string, string>;

const fixed = (path: string | undefined): path is string =>
  path !== undefined && path.startsWith('/') && !path.includes(':') && !path.includes('*');

/** The titles of `routes` (their handles' `meta.title`), walked as the router sees them. */
export function titlesFromRoutes(routes: RouteObject[]): RouteTitles {
  const out: RouteTitles = {};
  const walk = (list: RouteObject[]) => {
    for (const r of list) {
      const title = (r.handle as { meta?: { title?: string } } | undefined)?.meta?.title;
      if (fixed(r.path) && title) out[r.path] = title;
      if (r.children) walk(r.children);
    }
  };
  walk(routes);
  return out;
}

/**
 * The same titles read from routes.tsx's text, for the build (which cannot import the routes
 * themselves: they import every screen). Each `path: '…'` takes the first `title: ja.routes.…`
 * after it and before the next path, looked up in `catalog` (the catalog's `routes`, which the
 * build imports on its own: i18n/ja-routes.ts); a test holds this equal to
 * `titlesFromRoutes(routes)`. A key the catalog lacks is an error.
 */
export function titlesFromSource(
  source: string,
  catalog: Readonly<Record<string, string>>,
): RouteTitles {
  const out: RouteTitles = {};
  const paths = [...source.matchAll(/\bpath:\s*'([^']*)'/g)];
  paths.forEach((m, i) => {
    const end = paths[i + 1]?.index ?? source.length;
    const key = /\btitle:\s*ja\.routes\.(\w+)/.exec(source.slice(m.index, end))?.[1];
    if (key === undefined) return;
    const title = Object.hasOwn(catalog, key) ? catalog[key] : undefined;
    if (title === undefined) throw new Error(`routes.tsx: ja.routes.${key} is not in the catalog`);
    if (fixed(m[1]) && title) out[m[1]] = title;
  });
  return out;
}
