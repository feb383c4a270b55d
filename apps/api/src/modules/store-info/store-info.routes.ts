import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  basicInformationSchema,
  businessDetailsRequest,
  contactsRequest,
  coreInformationRequest,
  googleVersionRequest,
  ja,
  ok,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import type { StoreAccess } from '../stores/access';
import type { StoreInfoService } from './store-info.service';
import { storeRoute, storeOf } from '../../plugins/route-guards';

/**
 * The three forms of /basic-information (spec 2 §7): each saves Tenpo's copy and queues the
 * Google edit; the answer is the store's information with where its edits stand at Google.
 */
export function registerStoreInfoRoutes(
  app: FastifyInstance,
  deps: {
    storeInfo: StoreInfoService;
    access: StoreAccess;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const tags = ['entity'];
  const response = { 200: ok(basicInformationSchema) };

  r.put(
    '/entity/basic-information',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary:
          'Saves the core information (name, address, phone, categories, map marker, corporate code) and queues its Google edit (title, storefrontAddress, phoneNumbers, categories)',
        body: coreInformationRequest,
        response,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(await deps.storeInfo.saveCore(store, req.body, actor.user), ja.updateSuccess);
    },
  );

  r.put(
    '/entity/business-details',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary:
          'Saves the business details (description, hours as JSON text of periods, temporarily closed, payment options, price range, pickup and delivery) and queues its Google edit',
        body: businessDetailsRequest,
        response,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(
        await deps.storeInfo.saveDetails(store, req.body, actor.user),
        ja.updateSuccess,
      );
    },
  );

  r.put(
    '/entity/contact-websites-apps',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary:
          'Saves the contacts (e-mails, kept by Tenpo) and the website, and queues its Google edit (websiteUri)',
        body: contactsRequest,
        response,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(
        await deps.storeInfo.saveContacts(store, req.body, actor.user),
        ja.updateSuccess,
      );
    },
  );

  r.post(
    '/entity/google-version',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'body'),
      schema: {
        tags,
        summary:
          "Where Google shows its own value instead of the store's (getGoogleUpdated): `accept` takes Google's values into the copy and sends them as the store's; `resend` sends the store's values again (ADR 0061)",
        body: googleVersionRequest,
        response,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const store = storeOf(req);
      return okData(
        await deps.storeInfo.settleGoogleVersion(store, req.body.choice, actor.user),
        req.body.choice === 'accept' ? ja.googleVersionAccepted : ja.googleVersionResent,
      );
    },
  );
}
