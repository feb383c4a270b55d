import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  administrativeAreaSchema,
  businessCategorySchema,
  categoriesQuery,
  ok,
  postalCodeParams,
  postalCodeResponseData,
  prefecturesQuery,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import type { StoreAccess } from '../stores/access';
import type { StoreLookupsService } from './store-lookups.service';
import { signedIn, storeRoute, storeOf } from '../../plugins/route-guards';

/** The lookups of the basic-information form (spec 2 §7; ADR 0044). */
export function registerStoreLookupRoutes(
  app: FastifyInstance,
  deps: {
    lookups: StoreLookupsService;
    access: StoreAccess;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const pre = signedIn(deps.authenticate);

  r.get(
    '/postal-code/:code',
    {
      ...pre,
      schema: {
        tags: ['entity'],
        summary:
          'The address and coordinates of a Japanese postal code (1500002 or 150-0002): data.data holds zip_lat, zip_lng and the address parts. Offline: Japan Post KEN_ALL data, municipality points from OpenStreetMap (© OpenStreetMap contributors, ODbL). 422 when malformed, 404 when Japan Post lists no such code.',
        params: postalCodeParams,
        response: { 200: ok(postalCodeResponseData) },
      },
    },
    async (req) => okData(deps.lookups.postalCode(req.params.code)),
  );

  r.get(
    '/entity/prefectures',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags: ['entity'],
        summary:
          'The administrative-area choice list (spec 2 §5): the 47 prefectures of Japan in JIS code order, and Viet Nam’s 34 provinces; region_code=JP|VN narrows it to one region.',
        querystring: prefecturesQuery,
        response: { 200: ok(z.array(administrativeAreaSchema)) },
      },
    },
    async (req) => {
      return okData(deps.lookups.prefectures(req.query.region_code));
    },
  );

  r.get(
    '/entity/categories',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags: ['entity'],
        summary:
          'Google’s business categories in Japanese (Business Information categories.list, regionCode=JP, languageCode=ja, view=BASIC), cached for a day; search narrows them by display name. 409 when the store’s Google listing is not connected.',
        querystring: categoriesQuery,
        response: { 200: ok(z.array(businessCategorySchema)) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await deps.lookups.categories(store, req.query.search));
    },
  );
}
