import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../shared/runtime';
import { registerFacebookGraph } from './facebook.graph';
import { registerFacebookDialog } from './facebook.oauth';
import { facebookStore, seedFacebook } from './facebook.state';

/** Facebook Login and the Graph API (Pages, and Instagram content publishing on the same host). */
export function registerFacebook(app: FastifyInstance, rt: Runtime): void {
  const store = facebookStore(rt.dir, rt.now);
  const wipe = (keepFacebook: boolean) => {
    if (keepFacebook) {
      store.data.containers = [];
      store.data.igMedia = [];
    } else {
      for (const p of store.data.photos) if (p.blob) rt.blobs.remove(p.blob);
      store.data = seedFacebook(rt.now());
    }
    store.save();
  };
  rt.onReset('facebook', () => wipe(false));
  rt.onReset('instagram', () => wipe(true));
  registerFacebookDialog(app, rt, store);
  registerFacebookGraph(app, rt, store);
}
