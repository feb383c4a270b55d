/**
 * A reply's state as Tenpo shows it: `pending` while Google moderates it (ReviewReplyState),
 * `live` once Google shows it, `rejected` with Google's policy reason.
 */
export const REVIEW_REPLY_STATES = ['pending', 'live', 'rejected'] as const;
export type ReviewReplyState = (typeof REVIEW_REPLY_STATES)[number];
