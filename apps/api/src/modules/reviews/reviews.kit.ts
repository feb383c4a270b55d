import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import qrcode from 'qrcode-generator';
import { z } from 'zod';
import { ja, ok, publisherByKey, reviewKitJa, reviewOneQuery } from '@tenpo/domain';
import { credentialHandle, type ChannelRegistry } from '../../channels/channel';
import type { UserRow } from '../../db/types';
import { AppError } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { storeOf, storeRoute } from '../../plugins/route-guards';
import type { StoreAccess } from '../stores/access';
import type { ReviewsRepo } from './reviews.repo';

const GOOGLE = 'google_my_business' as const;

export const reviewKitSchema = z.object({
  store_name: z.string(),
  /** Google's write-a-review link for the listing (Location.metadata.newReviewUri). */
  new_review_uri: z.string(),
  /** The same link as a QR code, an SVG document (scalable, black on white, quiet zone kept). */
  qr_svg: z.string(),
  /** What a store may not do when it asks for reviews (Google's policy, ステマ規制). */
  rules: z.array(z.string()),
  card_lead: z.string(),
});
export type ReviewKit = z.infer<typeof reviewKitSchema>;

/** A QR code of the text as an SVG document (error correction M: survives a smudged print). */
export const qrSvg = (text: string): string => {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  return qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true });
};

/**
 * The review-request kit (issue 25 item 8): the store's review link read from Google, as a URL
 * and a printable QR code, with the rules that keep a request within Google's policy and the
 * law. Read from Google each time (one call): the link follows the listing it was made for.
 */
export function createReviewKit(deps: { repo: ReviewsRepo; registry: ChannelRegistry }) {
  return async (store: UserRow): Promise<ReviewKit> => {
    if (!(await deps.repo.googleLocation(store.id)))
      throw new AppError(
        409,
        'channel_not_connected',
        ja.channelNotConnected(publisherByKey(GOOGLE)?.label ?? GOOGLE),
      );
    const link = await deps.registry
      .require(GOOGLE, 'reviews')
      .reviewLink(credentialHandle(store.id, GOOGLE));
    // Google leaves the link out for a listing not verified (or suspended): a state of the
    // listing the owner can change, not a failure to try again. (Recorded by a public client:
    // the late/Zernio SDK's location model, "for unverified or new locations Google omits
    // placeId/reviewUrl/mapsUri", docs.rs/crate/late, models/get_google_business_location_details.)
    if (!link.newReviewUri?.startsWith('https://'))
      throw new AppError(409, 'no_review_link', reviewKitJa.noLink);
    return {
      store_name: store.store_name ?? store.email,
      new_review_uri: link.newReviewUri,
      qr_svg: qrSvg(link.newReviewUri),
      rules: [...reviewKitJa.rules],
      card_lead: reviewKitJa.cardLead,
    };
  };
}

export function registerReviewKitRoute(
  app: FastifyInstance,
  deps: {
    kit: ReturnType<typeof createReviewKit>;
    access: StoreAccess;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  withZod(app).get(
    '/reviews/request-kit',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags: ['reviews'],
        summary:
          "The store's review-request kit: Google's write-a-review link for its listing (Location.metadata.newReviewUri, read from Google), the same as a QR code (SVG) to print, and the rules a request must keep (no incentives, no star conditions, no staff reviews; ステマ規制). Google not connected: 409; a listing without the link (Google omits it until the owner is verified): 409 `no_review_link`.",
        querystring: reviewOneQuery,
        response: { 200: ok(reviewKitSchema) },
      },
    },
    async (req) => okData(await deps.kit(storeOf(req))),
  );
}
