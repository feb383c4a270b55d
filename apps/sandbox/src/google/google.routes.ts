import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../shared/runtime';
import { registerGoogleBusiness } from './google.business';
import { registerGoogleOAuth } from './google.oauth';
import { registerGooglePerformance } from './google.performance';
import { googleStore, seedGoogle } from './google.state';
import { registerGoogleV4 } from './google.v4';

/** Google: OAuth, Account Management, Business Information, Performance and v4 posts/media. */
export function registerGoogle(app: FastifyInstance, rt: Runtime): void {
  const store = googleStore(rt.dir, rt.now);
  rt.onReset('google', () => {
    for (const m of store.data.media) if (m.blob) rt.blobs.remove(m.blob);
    for (const u of store.data.uploads) rt.blobs.remove(u.blob);
    store.data = seedGoogle(rt.now());
    store.save();
  });
  registerGoogleOAuth(app, rt, store);
  registerGoogleBusiness(app, rt, store);
  registerGooglePerformance(app, rt, store);
  registerGoogleV4(app, rt, store);
}
