import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  ok,
  paymentJa,
  paymentMethodBody,
  paymentMethodSchema,
  paymentMethodsResponse,
  paymentPlanBody,
  paymentPlansResponse,
  paymentProviderSchema,
  paymentStoreQuery,
  purchaseBody,
  purchaseFormSchema,
  selectedMethodResponse,
  selectedPlanResponse,
  selectedPlanSchema,
  type PlanId,
} from '@tenpo/domain';
import type { LinkOrigin } from '../../lib/hosts';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import { storeRoute, storeOf } from '../../plugins/route-guards';
import type { StoreAccess } from '../stores/access';
import { registerCardRoutes } from './payments.routes.cards';
import { registerSbpsRoutes } from './payments.routes.sbps';
import type { PaymentsService } from './payments.service';
import type { TdsClient } from './tds';

/** SBPS's server-to-server notification and the browser's returns: no API key, no session. */
export const SBPS_OPEN_PATHS = /^\/api\/payment\/sbps\/(notification|return\/[a-z]+)(\/|\?|$)/;

export type PaymentRouteDeps = {
  payments: PaymentsService;
  access: StoreAccess;
  linkOrigin: LinkOrigin;
  authenticate: preHandlerAsyncHookHandler;
  /**
   * EMV 3-D Secure before a card is stored (ADR 0059); `client` null only with an in-memory
   * SBPS that has no 3DS (the unit tests' fake).
   */
  tds?: { client: TdsClient | null; secret: Buffer; now: () => Date };
};

/**
 * The payment calls of spec 1 §7 and the contract's §3 (issue 13, ADR 0050). Every call names a
 * store (`user_id`) and goes through store access: a store the caller may not act for is 404.
 */
export function registerPaymentRoutes(app: FastifyInstance, deps: PaymentRouteDeps): void {
  const r = withZod(app);
  const { payments, access } = deps;
  const tags = ['payments'];

  r.get(
    '/payment/provider',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: 'The card token script and the merchant the browser names to it (ADR 0050)',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentProviderSchema) },
      },
    },
    async () => okData(payments.provider()),
  );

  r.get(
    '/payment-methods',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: 'Payment methods; agency invoice is disabled for a direct customer',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentMethodsResponse) },
      },
    },
    async (req) => okData(payments.methods(storeOf(req))),
  );

  r.post(
    '/payment-methods',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary: "Chooses the store's payment method",
        body: paymentMethodBody,
        response: { 200: ok(paymentMethodSchema) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      const m = await payments.chooseMethod(actorOf(req).user, s, req.body.payment_name);
      return okData(m, paymentJa.methodChanged);
    },
  );

  r.get(
    '/payment-plans',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: 'The plans and their monthly prices (yen)',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentPlansResponse) },
      },
    },
    async () => okData(payments.plans()),
  );

  r.post(
    '/payment-plans',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary:
          'Chooses the plan: at once before the first payment, from the next charge during a paid period (next_plan)',
        body: paymentPlanBody,
        response: { 200: ok(selectedPlanSchema) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      const plan = await payments.choosePlan(actorOf(req).user, s, req.body.payment_plan as PlanId);
      return okData(plan, paymentJa.planChanged);
    },
  );

  r.get(
    '/payment/selected-payment-method',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: "The store's payment method, or null",
        querystring: paymentStoreQuery,
        response: { 200: ok(selectedMethodResponse) },
      },
    },
    async (req) => okData(await payments.selectedMethod(storeOf(req))),
  );

  r.get(
    '/payment/selected-payment-plan',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: "The store's plan, the next one and the billing days, or null",
        querystring: paymentStoreQuery,
        response: { 200: ok(selectedPlanResponse) },
      },
    },
    async (req) => okData(await payments.selectedPlan(storeOf(req))),
  );

  registerCardRoutes(app, deps);

  r.post(
    '/payment/purchase',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary:
          "The signed form (A01-1) of SBPS's hosted purchase page for the first payment or a failed period; the browser posts it",
        body: purchaseBody,
        response: { 200: ok(purchaseFormSchema) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      return okData(await payments.purchase(s, await deps.linkOrigin(req.headers.host)));
    },
  );

  registerSbpsRoutes(app, payments);
}
