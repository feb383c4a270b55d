import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { domainTitleResponseData, ok } from '@tenpo/domain';
import { notFound } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import type { DomainsRepo } from './domains.repo';
import { open } from '../../plugins/route-guards';

/** White-label lookup by the first label of the host name (spec 1 §1); public. */
export function registerDomainRoutes(app: FastifyInstance, deps: { domains: DomainsRepo }): void {
  withZod(app).get(
    '/domain/:prefix/title',
    {
      ...open('the white-label title is public by design: the login screen shows it'),
      schema: {
        tags: ['agency'],
        summary: 'Title and favicon of an agency by its host prefix',
        params: z.object({ prefix: z.string().regex(/^[a-z0-9-]{1,63}$/i) }),
        response: { 200: ok(domainTitleResponseData) },
      },
    },
    async (req) => {
      const d = await deps.domains.byPrefix(req.params.prefix);
      if (!d || d.status === 0) throw notFound();
      return okData({
        prefix: d.prefix,
        title: d.title,
        favicon_url: d.favicon_url,
        logo_url: d.logo_url,
      });
    },
  );
}
