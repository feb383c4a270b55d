import fs from 'node:fs';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  accountInformationRequest,
  confirmTermRequest,
  emailChangeConfirmRequest,
  emailChangeConfirmResponseData,
  ja,
  ok,
  ROLE,
  userIdField,
  userSchema,
} from '@tenpo/domain';
import { MANUAL_PDF } from '../../assets';
import { iso, type Clock } from '../../lib/clock';
import { AppError, fieldErrorsOf, validationError } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { accepted, registerUploadRoutes, withMultipart } from '../../lib/uploads';
import { actorOf } from '../../plugins/auth';
import type { MediaStorage } from '../../storage';
import type { StoreAccess } from '../stores/access';
import type { UsersService } from '../users/users.service';
import type { AuditLog } from '../audit/audit.repo';
import { accountTarget, pick } from '../audit/audit.entries';
import { multipartStoreRoute, open, signedIn } from '../../plugins/route-guards';
import type { EmailChangeService } from './email-change.service';

export function registerAccountRoutes(
  app: FastifyInstance,
  deps: {
    users: UsersService;
    access: StoreAccess;
    clock: Clock;
    storage: MediaStorage;
    audit: AuditLog;
    emailChange: EmailChangeService;
    authenticate: preHandlerAsyncHookHandler;
    authRateLimit: object;
  },
): void {
  const r = withZod(app);
  const { users, access, clock } = deps;
  const userResponse = { 200: ok(userSchema) };

  r.get(
    '/account-setting/information',
    {
      ...signedIn(deps.authenticate),
      schema: { tags: ['account'], summary: 'The logged-in user', response: userResponse },
    },
    async (req) => okData(await users.present(actorOf(req).user)),
  );

  r.post(
    '/confirm-term',
    {
      ...signedIn(deps.authenticate),
      schema: {
        tags: ['account'],
        summary: 'Agree to the terms of use',
        body: confirmTermRequest,
        response: userResponse,
      },
    },
    async (req) => {
      const actor = actorOf(req);
      if (req.body.email !== actor.user.email.toLowerCase())
        throw validationError({ email: [ja.email] });
      const row = await users.repo.update(actor.user.id, {
        agreed_terms: 1,
        updated_at: iso(clock.now()),
      });
      await deps.audit.recordUpdate(
        { actor: actor.user, ...accountTarget(actor.user), summary: '利用規約に同意' },
        { agreed_terms: actor.user.agreed_terms },
        { agreed_terms: row.agreed_terms },
      );
      return okData(await users.present(row), ja.termsAgreed);
    },
  );

  // The link mailed to a new login address (ADR 0065). No session: it may be opened on another
  // device; the token is the proof, and it changes only the account that asked.
  r.post(
    '/account-setting/email/confirm',
    {
      config: { rateLimit: deps.authRateLimit, ...open('the mailed one-use token').config },
      schema: {
        tags: ['account'],
        summary: 'Confirm a new login e-mail address with the mailed token',
        body: emailChangeConfirmRequest,
        response: { 200: ok(emailChangeConfirmResponseData) },
      },
    },
    async (req) => okData(await deps.emailChange.confirm(req.body.token), ja.emailChangeDone),
  );

  r.get(
    '/manual-page/download',
    {
      ...signedIn(deps.authenticate),
      schema: {
        tags: ['account'],
        summary: 'The Tenpo manual (PDF, Japanese)',
        produces: ['application/pdf'],
      },
    },
    async (_req, reply) => {
      if (!fs.existsSync(MANUAL_PDF)) throw new AppError(500, 'manual_missing', ja.serverError);
      reply.header('content-type', 'application/pdf');
      reply.header(
        'content-disposition',
        `inline; filename="tenpo-manual.pdf"; filename*=UTF-8''${encodeURIComponent('Tenpoご利用マニュアル.pdf')}`,
      );
      reply.header('cache-control', 'private, max-age=3600');
      return reply.send(fs.createReadStream(MANUAL_PDF));
    },
  );

  // The two routes that take files, with @fastify/multipart in their own scope (ADR 0029).
  registerUploadRoutes(app, (scope) => {
    const u = withZod(scope);
    u.post(
      '/account-setting/information',
      {
        // The caller's own account only: it names no store.
        ...signedIn(deps.authenticate),
        schema: {
          tags: ['account'],
          summary:
            'Change account information (multipart: name, company_name, store_name, email, phone, logo_url image ≤ 3072 KB; a new email needs current_password and is confirmed by mail)',
          consumes: ['multipart/form-data'],
          response: userResponse,
        },
      },
      async (req) => {
        const actor = actorOf(req);
        const rules = { logo_url: { accept: 'image', folder: 'logos' } } as const;
        let emailChanging = false;
        const row = await withMultipart(
          req,
          deps.storage,
          rules,
          async ({ fields, files }) => {
            const parsed = accountInformationRequest.safeParse(fields);
            if (!parsed.success) throw validationError(fieldErrorsOf(parsed.error));
            const { email, current_password, ...input } = parsed.data;
            // A new login address: the password first, then a link to the new address; the
            // address in use stays until the link is opened (ADR 0065).
            emailChanging = email !== actor.user.email.toLowerCase();
            if (emailChanging) await deps.emailChange.checkPassword(actor.user, current_password);
            const logo = files.logo_url;
            const updated = await users.repo.update(actor.user.id, {
              ...input,
              logo_url: logo ? accepted(logo).path : actor.user.logo_url,
              updated_at: iso(clock.now()),
            });
            const keys = ['name', 'company_name', 'store_name', 'phone', 'logo_url'] as const;
            await deps.audit.recordUpdate(
              { actor: actor.user, ...accountTarget(actor.user), summary: 'アカウント情報を変更' },
              pick(actor.user, keys),
              pick(updated, keys),
            );
            if (emailChanging) await deps.emailChange.request(actor.user, email, req.host);
            return updated;
          },
          { userId: actor.user.id },
        );
        return okData(
          await users.present(row),
          emailChanging ? ja.emailChangeRequested : ja.updateSuccess,
        );
      },
    );

    u.post(
      '/agency/logo',
      {
        ...multipartStoreRoute(deps.authenticate, 'write', { role: 'agency' }),
        schema: {
          tags: ['agency'],
          summary: 'Upload the agency logo (multipart: logo, user_id)',
          consumes: ['multipart/form-data'],
          response: userResponse,
        },
      },
      async (req) => {
        const actor = actorOf(req);
        const rules = { logo: { accept: 'image', folder: 'logos' } } as const;
        const row = await withMultipart(
          req,
          deps.storage,
          rules,
          async ({ fields, files }) => {
            const id = userIdField.safeParse(fields.user_id ?? actor.user.id);
            if (!id.success) throw validationError({ user_id: [ja.required('店舗')] });
            const target = await access.storeFor(actor, id.data, 'write');
            const logo = files.logo;
            if (!logo) throw validationError({ logo: [ja.required('ロゴ画像')] });
            const updated = await users.repo.update(target.id, {
              logo_url: accepted(logo).path,
              updated_at: iso(clock.now()),
            });
            await deps.audit.recordUpdate(
              {
                actor: actor.user,
                entity: target.role === ROLE.agency ? 'agency' : 'store',
                entityId: target.id,
                storeId: target.role === ROLE.agency ? null : target.id,
                agencyId: target.role === ROLE.agency ? target.id : target.agency_id,
                summary: 'ロゴを変更',
              },
              { logo_url: target.logo_url },
              { logo_url: updated.logo_url },
            );
            return updated;
          },
          {
            userId: actor.user.id,
            // The store is checked before the logo is read, when user_id came first (issue 22).
            authorize: async (fields) => {
              const id = userIdField.safeParse(fields.user_id);
              if (id.success) await access.storeFor(actor, id.data, 'write');
            },
          },
        );
        return okData(await users.present(row), ja.updateSuccess);
      },
    );
  });
}
