import { ja, PUBLISHER_STATUS, type FacebookPage, type PublisherRow } from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { validationError } from '../../lib/errors';
import type { AuditActor, AuditLog } from '../audit/audit.repo';
import type { PublisherService } from './publisher.service';

export type FacebookPagesService = ReturnType<typeof createFacebookPagesService>;

const KEY = 'facebook';

/** The page picker of /facebook/connect-page and what choosing a page connects. */
export function createFacebookPagesService(deps: {
  publishers: PublisherService;
  /** The page choice is recorded with the connection's writes (ADR 0047). */
  audit?: AuditLog;
}) {
  const { publishers } = deps;
  const picker = () => publishers.registry.require(KEY, 'pages');
  return {
    async pages(store: UserRow): Promise<FacebookPage[]> {
      publishers.ensureAllowed(store, KEY);
      const pages = await picker().listPages(publishers.handleOf(store, KEY));
      return pages.map(({ id, name, is_connected_instagram }) => ({
        id,
        name,
        is_connected_instagram,
      }));
    },

    /**
     * Connects the chosen page, and the Instagram account linked to it when there is one
     * (spec 1 §2); a page without one leaves Instagram disconnected. The provider is read
     * first; the four writes then make one unit of work, so a failure leaves none of them.
     */
    async connectPage(
      store: UserRow,
      pageId: string,
      actor: AuditActor | null = null,
    ): Promise<PublisherRow[]> {
      publishers.ensureAllowed(store, KEY);
      const found = (await picker().listPages(publishers.handleOf(store, KEY))).find(
        (p) => p.id === pageId,
      );
      if (!found) throw validationError({ page_id: [ja.pageNotFound] });
      const username =
        found.igUserId && found.pageToken
          ? await publishers.grants.use(publishers.handleOf(store, KEY), () =>
              picker().instagramUsername(found.igUserId as string, found.pageToken as string),
            )
          : null;
      const page = found;
      const pageToken = page.pageToken;
      if (!pageToken) throw validationError({ page_id: [ja.pageNotFound] });
      const was = await publishers.row(store, KEY);
      await publishers.unitOfWork(store, async (w, db) => {
        await deps.audit?.record(
          {
            actor,
            entity: 'connection',
            entityId: KEY,
            storeId: store.id,
            agencyId: store.agency_id,
            action: 'update',
            summary: `Facebook ページ「${page.name}」を選択`,
            before: { page: was.location_name, status: was.status },
            after: {
              page: page.name,
              status: PUBLISHER_STATUS.connected,
              instagram: page.igUserId ? (username ? `@${username}` : page.name) : null,
            },
          },
          db,
        );
        await w.updateCredentials(KEY, {
          page_id: page.id,
          page_token: publishers.seal(pageToken),
        });
        await w.saveConnection(KEY, {
          status: PUBLISHER_STATUS.connected,
          entity_id: page.id,
          location_name: page.name,
          log: '[]',
        });
        if (page.igUserId) {
          await w.saveCredentials('instagram', {
            // Instagram is used with the page's token (API with Facebook Login).
            access_token: publishers.seal(pageToken),
            refresh_token: null,
            expires_at: null,
            page_id: page.id,
            ig_user_id: page.igUserId,
          });
          await w.saveConnection('instagram', {
            status: PUBLISHER_STATUS.connected,
            entity_id: page.igUserId,
            location_name: username ? `@${username}` : page.name,
            log: '[]',
          });
        } else {
          await w.deleteCredentials(['instagram']);
          await w.saveConnection('instagram', {
            status: PUBLISHER_STATUS.disconnect,
            entity_id: null,
            location_name: null,
            log: '[]',
          });
        }
      });
      return [await publishers.row(store, KEY), await publishers.row(store, 'instagram')];
    },
  };
}
