import type { DataRouter } from 'react-router';
import { brandTitle, pageTitle } from '../lib/branding';
import { deepestMeta } from './use-route-meta';

/**
 * The tab names the screen, then the product as this host brands it. It follows the router's
 * committed state itself rather than a component's effect: an effect in the root route missed
 * the last of a chain of redirects now and then (/ → /overview → /dashboard left
 * 「アカウント概要」 on the dashboard's tab). Returns the unsubscribe.
 */
export function followDocumentTitle(router: DataRouter): () => void {
  const apply = () => {
    document.title = pageTitle(
      deepestMeta(router.state.matches.map((m) => m.route))?.title,
      brandTitle.get(),
    );
  };
  apply();
  const offRouter = router.subscribe(apply);
  const offBrand = brandTitle.subscribe(apply);
  return () => {
    offRouter();
    offBrand();
  };
}
