import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  facebookConnectPageRequest,
  facebookPageSchema,
  googleSyncRequest,
  ja,
  oauthReturnQuery,
  ok,
  PUBLISHER_KEYS,
  publisherById,
  publisherConnectQuery,
  publisherConnectResponse,
  publisherDisconnectRequest,
  publisherRowSchema,
  storeQuery,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import type { EntityService } from '../entity/entity.service';
import type { StoreAccess } from '../stores/access';
import type { FacebookPagesService } from './facebook-pages.service';
import type { PublisherService } from './publisher.service';
import { storeRoute, storeOf, open } from '../../plugins/route-guards';

/** The channel connection calls of spec 1 §7. Every call naming a store checks access first. */
export function registerPublisherRoutes(
  app: FastifyInstance,
  deps: {
    publishers: PublisherService;
    facebookPages: FacebookPagesService;
    entity: EntityService;
    access: StoreAccess;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const { publishers } = deps;
  const tags = ['publisher'];
  const rows = { 200: ok(z.array(publisherRowSchema)) };

  r.get(
    '/publisher',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags,
        summary: 'The four publishers merged with the store’s connections',
        querystring: storeQuery,
        response: rows,
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await publishers.list(store));
    },
  );

  r.get(
    '/publisher/connect',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'query'),
      schema: {
        tags,
        summary: 'The provider’s consent URL; the browser navigates to data.urlAuth',
        querystring: publisherConnectQuery,
        response: { 200: ok(publisherConnectResponse) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      // req.host: the Host (or, behind our proxy, X-Forwarded-Host) the browser asked on.
      const urlAuth = await publishers.connectUrl(
        actor.user.id,
        store,
        req.query.publisher_key,
        req.host,
      );
      return okData({ urlAuth });
    },
  );

  // The provider sends the browser here: no session header, no API key; the one-time state
  // (kept server-side, tied to the store and the PKCE verifier) is the credential.
  r.get(
    '/publisher/callback/:key',
    {
      ...open('the signed OAuth state names the store and the user who started it'),
      schema: {
        tags,
        summary: 'OAuth return from the provider; redirects the browser to the next screen',
        params: z.object({ key: z.enum(PUBLISHER_KEYS) }),
        querystring: oauthReturnQuery,
      },
    },
    async (req, reply) => {
      const next = await publishers.callback(req.params.key, req.query);
      return reply.header('cache-control', 'no-store').redirect(next, 302);
    },
  );

  r.put(
    '/publisher/disconnect',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary: 'Disconnects a publisher (Facebook takes Instagram with it)',
        body: publisherDisconnectRequest,
        response: rows,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      const key = publisherById(req.body.publisher_id)?.key ?? 'google_my_business';
      await publishers.disconnect(store, key, actor.user);
      return okData(await publishers.list(store), ja.disconnectSuccess);
    },
  );

  r.post(
    '/publisher/google-my-business/sync',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary: 'Reads the chosen location again from Google',
        body: googleSyncRequest,
        response: { 200: ok(publisherRowSchema) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await deps.entity.sync(store), ja.syncSuccess);
    },
  );

  r.get(
    '/publisher/facebook/pages',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'query'),
      schema: {
        tags,
        summary: 'The Facebook pages the connected user manages',
        querystring: storeQuery,
        response: { 200: ok(z.array(facebookPageSchema)) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await deps.facebookPages.pages(store));
    },
  );

  r.post(
    '/publisher/facebook/connect-page',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary: 'Connects the chosen page, and its Instagram account when linked',
        body: facebookConnectPageRequest,
        response: rows,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(
        await deps.facebookPages.connectPage(store, req.body.page_id, actor.user),
        ja.connectSuccess,
      );
    },
  );
}
