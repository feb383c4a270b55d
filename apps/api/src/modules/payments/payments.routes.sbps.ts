import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idField } from '@tenpo/domain';
import { withZod } from '../../lib/route';
import type { AccessRule } from '../../plugins/route-guards';
import type { PaymentsService } from './payments.service';
import { parseSjisForm, sjis } from './sbps.codec';

const OUTCOMES = ['success', 'error', 'cancel'] as const;

/** SBPS calls these, or the browser coming back from its page: the form's sps_hashcode is checked. */
const SBPS_SIGNED: AccessRule = {
  who: 'public',
  owner: "SBPS's form, checked by its sps_hashcode",
};

/** The fields of SBPS's form: its posted body, or the query of a GET return. */
function formOf(req: FastifyRequest): Record<string, string> {
  const b = req.body;
  const q = req.query as Record<string, unknown>;
  const src = b && typeof b === 'object' ? (b as Record<string, unknown>) : q;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(src)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * SBPS's side: Shift_JIS forms, answered without the API key or a session (their own checks
 * are the hash and the order id).
 */
export function registerSbpsRoutes(app: FastifyInstance, payments: PaymentsService): void {
  const tags = ['payments'];
  app.register(async (sbps) => {
    sbps.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer' },
      (_req, body, done) => done(null, parseSjisForm(body as Buffer)),
    );
    const z2 = withZod(sbps);

    z2.post(
      '/payment/sbps/notification',
      {
        config: { access: SBPS_SIGNED },
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
      querystring: z.object({ user_id: idField() }).passthrough(),
      security: [],
    };
    const back = (
      req: FastifyRequest,
      p: { outcome: (typeof OUTCOMES)[number] },
      q: { user_id: number },
    ) => payments.returnTo(p.outcome, q.user_id, formOf(req));
    z2.post(
      '/payment/sbps/return/:outcome',
      { config: { access: SBPS_SIGNED }, schema: returnSchema },
      async (req, reply) => reply.redirect(await back(req, req.params, req.query), 303),
    );
    z2.get(
      '/payment/sbps/return/:outcome',
      { config: { access: SBPS_SIGNED }, schema: returnSchema },
      async (req, reply) => reply.redirect(await back(req, req.params, req.query), 303),
    );
  });
}
