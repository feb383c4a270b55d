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
import { signedIn } from '../../plugins/route-guards';

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
  const { publishers, access } = deps;
  const pre = signedIn(deps.authenticate);
  const tags = ['publisher'];
  const rows = { 200: ok(z.array(publisherRowSchema)) };

  r.get(
    '/publisher',
    {
      ...pre,
      schema: {
        tags,
        summary: 'The four publishers merged with the store’s connections',
        querystring: storeQuery,
        response: rows,
      },
    },
    async (req) => {
      const store = await access.storeFor(actorOf(req), req.query.user_id, 'read');
      return okData(await publishers.list(store));
    },
  );

  r.get(
    '/publisher/connect',
    {
      ...pre,
      schema: {
        tags,
        summary: 'The provider’s consent URL; the browser navigates to data.urlAuth',
        querystring: publisherConnectQuery,
        response: { 200: ok(publisherConnectResponse) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = await access.storeFor(actor, req.query.user_id, 'write');
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
      ...pre,
      schema: {
        tags,
        summary: 'Disconnects a publisher (Facebook takes Instagram with it)',
        body: publisherDisconnectRequest,
        response: rows,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = await access.storeFor(actor, req.body.user_id, 'write');
      const key = publisherById(req.body.publisher_id)?.key ?? 'google_my_business';
      await publishers.disconnect(store, key, actor.user);
      return okData(await publishers.list(store), ja.disconnectSuccess);
    },
  );

  r.post(
    '/publisher/google-my-business/sync',
    {
      ...pre,
      schema: {
        tags,
        summary: 'Reads the chosen location again from Google',
        body: googleSyncRequest,
        response: { 200: ok(publisherRowSchema) },
      },
    },
    async (req) => {
      const store = await access.storeFor(actorOf(req), req.body.user_id, 'write');
      return okData(await deps.entity.sync(store), ja.syncSuccess);
    },
  );

  r.get(
    '/publisher/facebook/pages',
    {
      ...pre,
      schema: {
        tags,
        summary: 'The Facebook pages the connected user manages',
        querystring: storeQuery,
        response: { 200: ok(z.array(facebookPageSchema)) },
      },
    },
    async (req) => {
      const store = await access.storeFor(actorOf(req), req.query.user_id, 'write');
      return okData(await deps.facebookPages.pages(store));
    },
  );

  r.post(
    '/publisher/facebook/connect-page',
    {
      ...pre,
      schema: {
        tags,
        summary: 'Connects the chosen page, and its Instagram account when linked',
        body: facebookConnectPageRequest,
        response: rows,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = await access.storeFor(actor, req.body.user_id, 'write');
      return okData(
        await deps.facebookPages.connectPage(store, req.body.page_id, actor.user),
        ja.connectSuccess,
      );
    },
  );
}
