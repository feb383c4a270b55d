import type { Channel } from '../channel';
import type { FacebookPagesChannel } from '../facebook/facebook.channel';

/**
 * Instagram (API with Facebook Login, reference §3.1) has no consent screen of its own: the
 * Facebook login grants `instagram_basic` / `instagram_content_publish`, and the IG account is
 * the one linked to the chosen Page, used with that Page's token. So connecting Instagram is
 * connecting Facebook (spec 1 §2), and its errors are Graph errors (facebook.errors.ts).
 */
export function createInstagramChannel(facebook: FacebookPagesChannel): Channel {
  return {
    key: 'instagram',
    connectAs: 'facebook',
    afterConnect: facebook.afterConnect,
    refreshMarginMs: facebook.refreshMarginMs,
    connectUrl: (req) => facebook.connectUrl(req),
    exchangeCode: (code, redirectUri, verifier) =>
      facebook.exchangeCode(code, redirectUri, verifier),
    refresh: (tokens) => facebook.refresh(tokens),
    // Page tokens end with the Facebook grant; nothing of its own to revoke.
    revoke: async () => undefined,
  };
}
