import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  cardRegisterBody,
  creditCardResponse,
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
import type { StoreAccess } from '../stores/access';
import { parseSjisForm, sjis } from './sbps.codec';
import type { PaymentsService } from './payments.service';

/** SBPS's server-to-server notification and the browser's returns: no API key, no session. */
export const SBPS_OPEN_PATHS = /^\/api\/payment\/sbps\/(notification|return\/[a-z]+)(\/|\?|$)/;

const OUTCOMES = ['success', 'error', 'cancel'] as const;

/**
 * The payment calls of spec 1 §7 and the contract's §3 (issue 13, ADR 0050). Every call names a
 * store (`user_id`) and goes through store access: a store the caller may not act for is 404.
 */
export function registerPaymentRoutes(
  app: FastifyInstance,
  deps: {
    payments: PaymentsService;
    access: StoreAccess;
    linkOrigin: LinkOrigin;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const { payments, access } = deps;
  const pre = { preHandler: deps.authenticate };
  const tags = ['payments'];
  const store = (req: FastifyRequest, id: number, mode: 'read' | 'write') =>
    access.storeFor(actorOf(req), id, mode);

  r.get(
    '/payment/provider',
    {
      ...pre,
      schema: {
        tags,
        summary: 'The card token script and the merchant the browser names to it (ADR 0050)',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentProviderSchema) },
      },
    },
    async (req) => {
      await store(req, req.query.user_id, 'read');
      return okData(payments.provider());
    },
  );

  r.get(
    '/payment-methods',
    {
      ...pre,
      schema: {
        tags,
        summary: 'Payment methods; agency invoice is disabled for a direct customer',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentMethodsResponse) },
      },
    },
    async (req) => okData(payments.methods(await store(req, req.query.user_id, 'read'))),
  );

  r.post(
    '/payment-methods',
    {
      ...pre,
      schema: {
        tags,
        summary: "Chooses the store's payment method",
        body: paymentMethodBody,
        response: { 200: ok(paymentMethodSchema) },
      },
    },
    async (req) => {
      const s = await store(req, req.body.user_id, 'write');
      const m = await payments.chooseMethod(actorOf(req).user, s, req.body.payment_name);
      return okData(m, paymentJa.methodChanged);
    },
  );

  r.get(
    '/payment-plans',
    {
      ...pre,
      schema: {
        tags,
        summary: 'The plans and their monthly prices (yen)',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentPlansResponse) },
      },
    },
    async (req) => {
      await store(req, req.query.user_id, 'read');
      return okData(payments.plans());
    },
  );

  r.post(
    '/payment-plans',
    {
      ...pre,
      schema: {
        tags,
        summary:
          'Chooses the plan: at once before the first payment, from the next charge during a paid period (next_plan)',
        body: paymentPlanBody,
        response: { 200: ok(selectedPlanSchema) },
      },
    },
    async (req) => {
      const s = await store(req, req.body.user_id, 'write');
      const plan = await payments.choosePlan(actorOf(req).user, s, req.body.payment_plan as PlanId);
      return okData(plan, paymentJa.planChanged);
    },
  );

  r.get(
    '/payment/selected-payment-method',
    {
      ...pre,
      schema: {
        tags,
        summary: "The store's payment method, or null",
        querystring: paymentStoreQuery,
        response: { 200: ok(selectedMethodResponse) },
      },
    },
    async (req) =>
      okData(await payments.selectedMethod(await store(req, req.query.user_id, 'read'))),
  );

  r.get(
    '/payment/selected-payment-plan',
    {
      ...pre,
      schema: {
        tags,
        summary: "The store's plan, the next one and the billing days, or null",
        querystring: paymentStoreQuery,
        response: { 200: ok(selectedPlanResponse) },
      },
    },
    async (req) => okData(await payments.selectedPlan(await store(req, req.query.user_id, 'read'))),
  );

  r.post(
    '/payment/credit-card/register',
    {
      ...pre,
      schema: {
        tags,
        summary:
          "Registers or replaces the store's card from the token script's token pair (never the number); clears a payment failure and retries the failed charge",
        body: cardRegisterBody,
        response: { 200: ok(creditCardResponse) },
      },
    },
    async (req) => {
      const s = await store(req, req.body.user_id, 'write');
      const card = await payments.registerCard(
        actorOf(req).user,
        s,
        req.body.token,
        req.body.tokenKey,
      );
      return okData(card, paymentJa.cardRegistered);
    },
  );

  r.get(
    '/payment/credit-card/reference',
    {
      ...pre,
      schema: {
        tags,
        summary: "The store's card as SBPS holds it (masked), or null",
        querystring: paymentStoreQuery,
        response: { 200: ok(creditCardResponse) },
      },
    },
    async (req) =>
      okData(await payments.referenceCard(await store(req, req.query.user_id, 'read'))),
  );

  r.get(
    '/payment/credit-card/remove',
    {
      ...pre,
      schema: {
        tags,
        summary: "Removes the store's card; refused while a paid plan is billed to it",
        querystring: paymentStoreQuery,
        response: { 200: ok(z.null()) },
      },
    },
    async (req) => {
      const s = await store(req, req.query.user_id, 'write');
      await payments.removeCard(actorOf(req).user, s);
      return okData(null, paymentJa.cardRemoved);
    },
  );

  r.post(
    '/payment/purchase',
    {
      ...pre,
      schema: {
        tags,
        summary:
          "The signed form (A01-1) of SBPS's hosted purchase page for the first payment or a failed period; the browser posts it",
        body: purchaseBody,
        response: { 200: ok(purchaseFormSchema) },
      },
    },
    async (req) => {
      const s = await store(req, req.body.user_id, 'write');
      return okData(await payments.purchase(s, await deps.linkOrigin(req.headers.host)));
    },
  );

  // SBPS's side: Shift_JIS forms, answered without the API key or a session (their own checks
  // are the hash and the order id).
  app.register(async (sbps) => {
    sbps.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer' },
      (_req, body, done) => done(null, parseSjisForm(body as Buffer)),
    );
    const z2 = withZod(sbps);
    const formOf = (req: FastifyRequest): Record<string, string> => {
      const b = req.body;
      const q = req.query as Record<string, unknown>;
      const src = b && typeof b === 'object' ? (b as Record<string, unknown>) : q;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(src)) if (typeof v === 'string') out[k] = v;
      return out;
    };

    z2.post(
      '/payment/sbps/notification',
      {
        schema: {
          tags,
          summary:
            'SBPS result notification (A02-1, pagecon_url): Shift_JIS form; answers text/plain `OK,` or `NG,<reason>` (tampered, unknown, replay)',
          security: [],
        },
      },
      async (req, reply) => {
        const out = await payments.notification(formOf(req));
        reply.type('text/plain; charset=Shift_JIS');
        return reply.send(sjis(out.ok ? 'OK,' : `NG,${out.reason}`));
      },
    );

    const returnSchema = {
      tags,
      summary:
        "The browser's return from SBPS's hosted page (A03-1): 303 to the web's /register-payment with stt_id 12999 or 18999",
      params: z.object({ outcome: z.enum(OUTCOMES) }),
      querystring: z.object({ user_id: z.coerce.number().int().positive() }).passthrough(),
      security: [],
    };
    const back = (
      req: FastifyRequest,
      p: { outcome: (typeof OUTCOMES)[number] },
      q: { user_id: number },
    ) => payments.returnTo(p.outcome, q.user_id, formOf(req));
    z2.post('/payment/sbps/return/:outcome', { schema: returnSchema }, async (req, reply) =>
      reply.redirect(await back(req, req.params, req.query), 303),
    );
    z2.get('/payment/sbps/return/:outcome', { schema: returnSchema }, async (req, reply) =>
      reply.redirect(await back(req, req.params, req.query), 303),
    );
  });
}
