import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GoogleReview, GoogleReviewReply } from '../src/channels/google/google.client';
import { replyOf, reviewOf } from '../src/channels/google/google.reviews';

/** What Tenpo's Google client reads from Google's review bodies (fixtures/google-reviews). */
const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/google-reviews');
const fixture = <T>(name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as T;

describe('Google reviews as Tenpo reads them', () => {
  const list = fixture<{ reviews: GoogleReview[] }>('list.json');

  it('a named reviewer with a photo, a text, an approved reply and a photo', () => {
    expect(reviewOf(list.reviews[0] as GoogleReview)).toEqual({
      name: 'accounts/104772635510001234567/locations/4821390157204861230/reviews/AbFvOqn1example',
      reviewId: 'AbFvOqn1example',
      reviewerName: '佐藤 花子',
      reviewerPhotoUrl: 'https://lh3.googleusercontent.com/a/example',
      isAnonymous: false,
      stars: 5,
      comment: 'スタッフの方の対応がとても丁寧でした。',
      media: [{ thumbnailUrl: 'https://lh3.googleusercontent.com/p/example', videoUrl: null }],
      createTime: '2026-10-02T06:01:23.045Z',
      updateTime: '2026-10-02T06:01:23.045Z',
      reply: {
        comment: 'ご来店ありがとうございました。',
        updateTime: '2026-10-03T01:00:00Z',
        state: 'live',
        policyViolation: null,
      },
      replyUrl: 'https://business.google.com/reviews/reply?example',
    });
  });

  it('an anonymous reviewer with stars only: no name, no photo, no text', () => {
    expect(reviewOf(list.reviews[1] as GoogleReview)).toMatchObject({
      reviewerName: '',
      reviewerPhotoUrl: null,
      isAnonymous: true,
      stars: 2,
      comment: null,
      reply: null,
    });
  });

  it('a reply pending moderation, and one rejected with its policy reason', () => {
    expect(replyOf(fixture<GoogleReviewReply>('reply-pending.json'))).toMatchObject({
      state: 'pending',
      policyViolation: null,
    });
    const rejected = replyOf(fixture<GoogleReviewReply>('reply-rejected.json'));
    expect(rejected?.state).toBe('rejected');
    expect(rejected?.policyViolation).toBe('ADVERTISING_AND_SOLICITATION');
  });
});
