import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  noticeJa,
  noticeListQuery,
  noticeListResponse,
  noticeReadBody,
  noticeSettingsSchema,
  ok,
} from '@tenpo/domain';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import { signedIn } from '../../plugins/route-guards';
import type { NoticesService } from './notices.service';

const OWN = "the caller's own notices only: another user's ids change nothing";

/** In-app notices and the review mail choice, of the signed-in user (ADR 0094). */
export function registerNoticeRoutes(
  app: FastifyInstance,
  deps: { notices: NoticesService; authenticate: preHandlerAsyncHookHandler },
): void {
  const r = withZod(app);
  const { notices } = deps;

  r.get(
    '/notices',
    {
      ...signedIn(deps.authenticate, OWN),
      schema: {
        tags: ['notices'],
        summary:
          "The caller's notices, newest first (new reviews of its stores, requests for approval and their outcome, bursts of low ratings), with the number unread. `unread=1` lists the unread only.",
        querystring: noticeListQuery,
        response: { 200: ok(noticeListResponse) },
      },
    },
    async (req) => okData(await notices.list(actorOf(req).user.id, req.query)),
  );

  r.post(
    '/notices/read',
    {
      ...signedIn(deps.authenticate, OWN),
      schema: {
        tags: ['notices'],
        summary: "Mark the caller's notices read: those of `ids`, or all when it is absent.",
        body: noticeReadBody,
        response: { 200: ok(z.object({ unread: z.number().int() })) },
      },
    },
    async (req) => {
      const userId = actorOf(req).user.id;
      await notices.markRead(userId, req.body.ids?.map(Number));
      const { unread } = await notices.list(userId, { page: 1, limit: 1, unread: '1' });
      return okData({ unread }, req.body.ids ? undefined : noticeJa.allRead);
    },
  );

  r.get(
    '/notices/settings',
    {
      ...signedIn(deps.authenticate),
      schema: {
        tags: ['notices'],
        summary:
          'How the caller hears of new reviews by mail: `immediate` (after each reading of Google, the default), `daily` (one digest at 8:00 Tokyo) or `off`. Notices in the app are kept in every case.',
        response: { 200: ok(noticeSettingsSchema) },
      },
    },
    async (req) => okData(await notices.settingsOf(actorOf(req).user.id)),
  );

  r.put(
    '/notices/settings',
    {
      ...signedIn(deps.authenticate),
      schema: {
        tags: ['notices'],
        summary: 'Set how the caller hears of new reviews by mail.',
        body: noticeSettingsSchema,
        response: { 200: ok(noticeSettingsSchema) },
      },
    },
    async (req) =>
      okData(
        await notices.saveSettings(actorOf(req).user.id, req.body.review_mail),
        noticeJa.settingsSaved,
      ),
  );
}
