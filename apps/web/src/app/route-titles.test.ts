import { describe, expect, it } from 'vitest';
import { routes } from './routes';
import { ja } from '../i18n/ja';
import { jaRoutes } from '../i18n/ja-routes';
import { titlesFromRoutes, titlesFromSource } from './route-titles';
// The build reads the routes' text the same way (apps/web/vite.config.ts, routeTitles).
import source from './routes.tsx?raw';

describe('route titles for the first paint', () => {
  it('reads from routes.tsx exactly the titles the router holds', () => {
    const fromRoutes = titlesFromRoutes(routes);
    expect(titlesFromSource(source, jaRoutes)).toEqual(fromRoutes);
    expect(fromRoutes['/dashboard']).toBe('ダッシュボード');
    expect(fromRoutes['/posts']).toBe('投稿一覧');
    expect(fromRoutes['/reviews']).toBe('口コミ');
  });

  it('takes the titles from the catalog, and fails on a key the catalog lacks', () => {
    expect(ja.routes).toBe(jaRoutes);
    const one = "{ path: '/x', element: null, handle: meta({ name: 'X', title: ja.routes.";
    expect(titlesFromSource(`${one}media }) }`, jaRoutes)).toEqual({ '/x': '写真・動画' });
    expect(() => titlesFromSource(`${one}nothing }) }`, jaRoutes)).toThrow('ja.routes.nothing');
  });

  it('leaves out paths with parameters and the catch-all', () => {
    const titles = titlesFromRoutes(routes);
    expect(Object.keys(titles).some((p) => p.includes(':') || p.includes('*'))).toBe(false);
  });
});
