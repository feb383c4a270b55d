import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  basicInformationQuery,
  basicInformationSchema,
  chooseLocationRequest,
  ja,
  locationSchema,
  locationsQuery,
  ok,
  paged,
  publisherRowSchema,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import type { StoreAccess } from '../stores/access';
import type { EntityService } from './entity.service';
import { storeRoute, storeOf } from '../../plugins/route-guards';

/** The location picker of /connect-location (spec 1 §2, §7); the store's basic information. */
export function registerEntityRoutes(
  app: FastifyInstance,
  deps: { entity: EntityService; access: StoreAccess; authenticate: preHandlerAsyncHookHandler },
): void {
  const r = withZod(app);
  const tags = ['entity'];

  r.get(
    '/entity/locations',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'query'),
      schema: {
        tags,
        summary: 'The business locations of the connected Google account (5 a page)',
        querystring: locationsQuery,
        response: { 200: ok(paged(locationSchema)) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await deps.entity.locations(store, req.query.page, req.query.per_page));
    },
  );

  r.post(
    '/entity/location',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary: 'Chooses the location that becomes the store’s listing',
        body: chooseLocationRequest,
        response: { 200: ok(publisherRowSchema) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(
        await deps.entity.choose(store, req.body.location_id, actor.user),
        ja.connectSuccess,
      );
    },
  );

  r.get(
    '/entity/basic-information',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags,
        summary:
          'The store’s basic information (spec 2 §7), read from its chosen Google location: name, address, main phone, website. Read-only; fields not read yet are null.',
        querystring: basicInformationQuery,
        response: { 200: ok(basicInformationSchema) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await deps.entity.basicInformation(store));
    },
  );
}
