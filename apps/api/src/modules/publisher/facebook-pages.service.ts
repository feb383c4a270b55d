import { ja, PUBLISHER_STATUS, type FacebookPage, type PublisherRow } from '@tenpo/domain';
import type { FacebookPagesChannel } from '../../channels/facebook/facebook.channel';
import type { UserRow } from '../../db/types';
import { validationError } from '../../lib/errors';
import type { PublisherService } from './publisher.service';

export type FacebookPagesService = ReturnType<typeof createFacebookPagesService>;

/** The page picker of /facebook/connect-page and what choosing a page connects. */
export function createFacebookPagesService(deps: {
  publishers: PublisherService;
  facebook: FacebookPagesChannel;
}) {
  const { publishers, facebook } = deps;
  return {
    async pages(store: UserRow): Promise<FacebookPage[]> {
      publishers.ensureAllowed(store, 'facebook');
      const pages = await publishers.withAccess(store, 'facebook', (token) =>
        facebook.listPages(token),
      );
      return pages.map(({ id, name, is_connected_instagram }) => ({
        id,
        name,
        is_connected_instagram,
      }));
    },

    /**
     * Connects the chosen page, and the Instagram account linked to it when there is one
     * (spec 1 §2); a page without one leaves Instagram disconnected.
     */
    async connectPage(store: UserRow, pageId: string): Promise<PublisherRow[]> {
      publishers.ensureAllowed(store, 'facebook');
      const { page, username } = await publishers.withAccess(store, 'facebook', async (token) => {
        const found = (await facebook.listPages(token)).find((p) => p.id === pageId);
        if (!found) throw validationError({ page_id: [ja.pageNotFound] });
        const name =
          found.igUserId && found.pageToken
            ? await facebook.instagramUsername(found.igUserId, found.pageToken)
            : null;
        return { page: found, username: name };
      });
      if (!page.pageToken) throw validationError({ page_id: [ja.pageNotFound] });
      await publishers.updateCredentials(store, 'facebook', {
        page_id: page.id,
        page_token: publishers.seal(page.pageToken),
      });
      await publishers.saveConnection(store, 'facebook', {
        status: PUBLISHER_STATUS.connected,
        entity_id: page.id,
        location_name: page.name,
        log: '[]',
      });
      if (page.igUserId) {
        await publishers.saveCredentials(store, 'instagram', {
          // Instagram is used with the page's token (API with Facebook Login).
          access_token: publishers.seal(page.pageToken),
          refresh_token: null,
          expires_at: null,
          page_id: page.id,
          ig_user_id: page.igUserId,
        });
        await publishers.saveConnection(store, 'instagram', {
          status: PUBLISHER_STATUS.connected,
          entity_id: page.igUserId,
          location_name: username ? `@${username}` : page.name,
          log: '[]',
        });
      } else {
        await publishers.deleteCredentials(store, ['instagram']);
        await publishers.saveConnection(store, 'instagram', {
          status: PUBLISHER_STATUS.disconnect,
          entity_id: null,
          location_name: null,
          log: '[]',
        });
      }
      return [await publishers.row(store, 'facebook'), await publishers.row(store, 'instagram')];
    },
  };
}
