import { describe, expect, it } from 'vitest';
import { formatPostDate, ja } from '@tenpo/domain';
import { AppError } from '../../lib/errors';
import { validatePostRequest } from './posts.validate';

const now = new Date('2026-11-24T03:00:00.000Z');
const at = (ms: number) => formatPostDate(new Date(now.getTime() + ms));
const base = { user_id: '7', content: '本日のおすすめ', shared_sns_type: 'google_my_business' };

const errorsOf = (fields: Record<string, string>): Record<string, string[]> => {
  try {
    validatePostRequest({ ...base, ...fields }, [], now);
  } catch (e) {
    if (e instanceof AppError && e.statusCode === 422) return e.errors;
    throw e;
  }
  return {};
};

describe('validatePostRequest', () => {
  it.each([
    [{ content: '  ' }, 'content', ja.postContentRequired],
    [{ user_id: '' }, 'user_id', ja.postStoreRequired],
    [{ shared_sns_type: '' }, 'shared_sns_type', ja.postChannelRequired],
    [{ shared_sns_type: 'facebook,tiktok' }, 'shared_sns_type', ja.postChannelUnknown],
    [{ button_type: '3' }, 'button_type', ja.postButtonTypeInvalid],
    [{ button_type: '1' }, 'button_link', ja.postButtonLinkRequired],
    [
      { button_type: '2', button_link: 'javascript:alert(1)' },
      'button_link',
      ja.postButtonLinkInvalid,
    ],
    [{ button_type: '6' }, 'phone_number', ja.postPhoneRequired],
    [{ publish_date: '2026/11/24 12:00' }, 'publish_date', ja.postDateFormat],
    [{ publish_date: at(-3600_000) }, 'publish_date', ja.postDateFromNow],
    [{ delete_date: at(-60_000) }, 'delete_date', ja.postDeleteFromNow],
    [
      { publish_date: at(3600_000), delete_date: at(1800_000) },
      'delete_date',
      ja.postDeleteAfterPublish,
    ],
  ])('%j → %s', (fields, field, message) => {
    expect(errorsOf(fields)[field]).toContain(message);
  });

  it('accepts a good request: several stores, channels deduplicated, dates read in Tokyo', () => {
    const r = validatePostRequest(
      {
        ...base,
        user_id: '7, 8,7',
        shared_sns_type: 'facebook,twitter,facebook',
        button_type: '4',
        button_link: 'https://cafe.example/menu',
        publish_date: at(3600_000),
        delete_date: at(7200_000),
      },
      [],
      now,
    );
    expect(r.storeIds).toEqual([7, 8]);
    expect(r.channels).toEqual(['facebook', 'twitter']);
    expect(r.publishAt.toISOString()).toBe('2026-11-24T04:00:00.000Z');
    expect(r.deleteAt?.toISOString()).toBe('2026-11-24T05:00:00.000Z');
  });

  it('no publish date, or one a moment ago, means now; a link is dropped for a non-link button', () => {
    const r = validatePostRequest(
      { ...base, button_link: 'https://x.example', publish_date: at(-60_000) },
      [],
      now,
    );
    expect(r.publishAt).toEqual(now);
    expect(r.buttonLink).toBeNull();
  });

  it('eleven media are refused', () => {
    const media = Array.from({ length: 11 }, (_, i) => ({
      from: 'url' as const,
      index: i,
      url: `/uploads/media/posts/abcdefghij${i}.jpg`,
    }));
    expect(() => validatePostRequest(base, media, now)).toThrow(ja.postTooManyFiles(10));
  });
});
