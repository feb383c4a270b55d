import { describe, expect, it } from 'vitest';
import { ja } from '../messages/ja';
import { PUBLISHER_KEYS, type PublisherKey } from '../publishers/publishers';
import type { MediaMeta } from './media-rules';
import {
  BUTTON_TYPES,
  checkPost,
  GOOGLE_ACTION_TYPE,
  OFFERED_BUTTON_TYPES,
  splitPost,
  type PostInput,
} from './post-rules';
import { textLength, xWeightedLength } from './text-length';
import { formatTokyoDateTime, parseTokyoDateTime } from '../tokyo';

// 2026-11-24 10:30:20 in Tokyo.
const NOW = new Date('2026-11-24T01:30:20Z');
const ALL: PublisherKey[] = [...PUBLISHER_KEYS];

const post = (over: Partial<PostInput> = {}): PostInput => ({
  content: '本日のおすすめ',
  button_type: 0,
  button_link: '',
  phone_number: '',
  shared_sns_type: ['facebook'],
  publish_date: '',
  delete_date: '',
  connected: ALL,
  ...over,
});

const photo: MediaMeta = {
  name: 'a.jpeg',
  ext: 'jpeg',
  bytes: 200 * 1024,
  width: 1280,
  height: 720,
  kind: 'image',
};
const video: MediaMeta = {
  name: 'v.mp4',
  ext: 'mp4',
  bytes: 2 * 1024 * 1024,
  width: 1280,
  height: 720,
  durationSec: 10,
  kind: 'video',
};

describe('checkPost', () => {
  it('passes a plain post', () => {
    expect(checkPost(post(), [], NOW)).toEqual({});
    expect(checkPost(post({ shared_sns_type: ALL }), [photo], NOW)).toEqual({});
  });

  it.each(['', '   \n'])('requires content (%j)', (content) => {
    expect(checkPost(post({ content }), [], NOW)).toEqual({
      content: [ja.required('投稿内容')],
    });
  });

  it('gathers several fields at once', () => {
    const errs = checkPost(
      post({
        content: '',
        button_type: 1,
        shared_sns_type: ['instagram'],
        publish_date: '2020-01-01 00:00:00',
      }),
      [],
      NOW,
    );
    expect(Object.keys(errs).sort()).toEqual(['button_link', 'content', 'medias', 'publish_date']);
  });
});

describe('checkPost: text length per target (X: 160, weighted)', () => {
  const x = (content: string) =>
    checkPost(post({ content, shared_sns_type: ['twitter'] }), [], NOW);
  const tooLong = { content: [ja.postTextTooLongWeighted('X', 160)] };
  it.each<[string, string, boolean]>([
    ['160 Latin letters', 'a'.repeat(160), true],
    ['161 Latin letters', 'a'.repeat(161), false],
    ['80 kana (each counts 2)', 'あ'.repeat(80), true],
    ['81 kana', 'あ'.repeat(81), false],
    ['a URL counts 23', `${'a'.repeat(137)}https://example.com/a/very/long/path/indeed`, true],
    ['a URL counts 23, one over', `${'a'.repeat(138)}https://example.com/x`, false],
  ])('%s', (_n, content, ok) => expect(x(content)).toEqual(ok ? {} : tooLong));

  it('the same 161-letter text goes to Facebook', () => {
    expect(checkPost(post({ content: 'a'.repeat(161) }), [], NOW)).toEqual({});
  });

  it('Google takes 1500 characters, Instagram 2200', () => {
    const g = post({ shared_sns_type: ['google_my_business'] });
    expect(checkPost({ ...g, content: 'あ'.repeat(1500) }, [], NOW)).toEqual({});
    expect(checkPost({ ...g, content: 'あ'.repeat(1501) }, [], NOW)).toEqual({
      content: [ja.postTextTooLong('Google', 1500)],
    });
    const i = post({ shared_sns_type: ['instagram'] });
    expect(checkPost({ ...i, content: 'a'.repeat(2200) }, [photo], NOW)).toEqual({});
    expect(checkPost({ ...i, content: 'a'.repeat(2201) }, [photo], NOW)).toEqual({
      content: [ja.postTextTooLong('Instagram', 2200)],
    });
  });

  it('counts X weights as twitter-text does', () => {
    expect(xWeightedLength('hello')).toBe(5);
    expect(xWeightedLength('こんにちは')).toBe(10);
    expect(xWeightedLength('👍🏽')).toBe(2);
    expect(xWeightedLength('👨‍👩‍👧')).toBe(2);
    expect(xWeightedLength('see http://a.example/x')).toBe(4 + 23);
    expect(xWeightedLength('“quoted”')).toBe(8);
    expect(textLength('あいう', 'chars')).toBe(3);
    expect(textLength('𠮷', 'chars')).toBe(1);
  });
});

describe('checkPost: buttons', () => {
  it('offers the spec types and maps every type to a Google action', () => {
    expect(OFFERED_BUTTON_TYPES).toEqual([0, 1, 2, 4, 5, 6]);
    expect(BUTTON_TYPES).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(GOOGLE_ACTION_TYPE).toEqual({
      0: null,
      1: 'BOOK',
      2: 'ORDER',
      3: 'SHOP',
      4: 'LEARN_MORE',
      5: 'SIGN_UP',
      6: 'CALL',
    });
  });

  it.each([1, 2, 3, 4, 5])('type %i needs a link', (button_type) => {
    expect(checkPost(post({ button_type }), [], NOW)).toEqual({
      button_link: [ja.required('ボタンのリンク')],
    });
    expect(
      checkPost(post({ button_type, button_link: 'https://shop.example/menu?x=1' }), [], NOW),
    ).toEqual({});
  });

  it.each([
    ['http://shop.example', true],
    ['HTTPS://shop.example/a#b', true],
    ['https://localhost:8080/x', true],
    ['ftp://shop.example', false],
    ['shop.example', false],
    ['javascript:alert(1)', false],
    ['https://', false],
    ['https:// shop.example', false],
    ['https://shop .example', false],
  ])('link %s valid: %s', (button_link, ok) => {
    expect(checkPost(post({ button_type: 4, button_link }), [], NOW)).toEqual(
      ok ? {} : { button_link: [ja.postLinkNotHttp] },
    );
  });

  it('needs no link for none and call now', () => {
    expect(checkPost(post({ button_type: 0 }), [], NOW)).toEqual({});
    expect(checkPost(post({ button_type: 6, phone_number: '0312345678' }), [], NOW)).toEqual({});
  });

  it('call now needs a phone', () => {
    expect(checkPost(post({ button_type: 6 }), [], NOW)).toEqual({
      phone_number: [ja.postCallNowNeedsPhone],
    });
  });

  it.each([7, -1, 1.5, Number.NaN])('refuses button type %s', (button_type) => {
    expect(checkPost(post({ button_type }), [], NOW)).toEqual({
      button_type: [ja.invalidChoice('ボタンの種類')],
    });
  });

  it('refuses a Buy button with Google, takes it elsewhere', () => {
    const buy = { button_type: 3, button_link: 'https://shop.example' };
    expect(checkPost(post({ ...buy, shared_sns_type: ['google_my_business'] }), [], NOW)).toEqual({
      button_type: [ja.postButtonNotWith('Google')],
    });
    expect(
      checkPost(post({ ...buy, shared_sns_type: ['google_my_business', 'facebook'] }), [], NOW),
    ).toEqual({ button_type: [ja.postButtonNotWith('Google')] });
    expect(checkPost(post({ ...buy, shared_sns_type: ['facebook', 'twitter'] }), [], NOW)).toEqual(
      {},
    );
  });
});

describe('checkPost: targets', () => {
  it('must be connected', () => {
    expect(
      checkPost(
        post({ shared_sns_type: ['facebook', 'twitter'], connected: ['facebook'] }),
        [],
        NOW,
      ),
    ).toEqual({ shared_sns_type: [ja.channelNotConnected('X')] });
  });
  it('must be known', () => {
    expect(checkPost(post({ shared_sns_type: ['myspace'] }), [], NOW)).toEqual({
      shared_sns_type: [ja.invalidChoice('投稿先')],
    });
  });
  it('must not be empty', () => {
    expect(checkPost(post({ shared_sns_type: [] }), [], NOW)).toEqual({
      shared_sns_type: [ja.postTargetsRequired],
    });
    expect(checkPost(post({ shared_sns_type: [' ', ''] }), [], NOW)).toEqual({
      shared_sns_type: [ja.postTargetsRequired],
    });
  });
  it('takes a target named twice once', () => {
    expect(checkPost(post({ shared_sns_type: ['facebook', ' facebook'] }), [], NOW)).toEqual({});
  });
});

describe('checkPost: media per target', () => {
  it('Instagram needs a photo or video', () => {
    const ig = post({ shared_sns_type: ['instagram'] });
    expect(checkPost(ig, [], NOW)).toEqual({ medias: [ja.postMediaRequired('Instagram')] });
    expect(checkPost(ig, [photo], NOW)).toEqual({});
    expect(checkPost(ig, [video], NOW)).toEqual({});
  });

  it('checks the files against every target, each message once', () => {
    const two = [photo, photo];
    expect(
      checkPost(post({ shared_sns_type: ['google_my_business', 'twitter'] }), two, NOW),
    ).toEqual({ medias: [ja.mediaCountOver('Google', 1)] });
    expect(checkPost(post({ shared_sns_type: ['google_my_business'] }), [video], NOW)).toEqual({
      medias: [ja.mediaVideoNotAllowed('Google')],
    });
  });
});

describe('checkPost: dates: now or later in Tokyo', () => {
  it.each<[string, string, string[] | undefined]>([
    ['empty publish date is now', '', undefined],
    ['later today', '2026-11-24 18:00:00', undefined],
    ['this minute (Tokyo)', '2026-11-24 10:30:00', undefined],
    ['the minute before', '2026-11-24 10:29:59', [ja.postDateFromNow]],
    [
      'the same clock time read as UTC would be later, but it is Tokyo',
      '2026-11-24 01:31:00',
      [ja.postDateFromNow],
    ],
    ['yesterday', '2026-11-23 12:00:00', [ja.postDateFromNow]],
    ['not a date', '2026-02-30 10:00:00', [ja.postDateFormat]],
    ['ISO form', '2026-11-25T10:00:00', [ja.postDateFormat]],
    ['no seconds', '2026-11-25 10:00', [ja.postDateFormat]],
  ])('publish_date: %s', (_n, publish_date, errs) => {
    expect(checkPost(post({ publish_date }), [], NOW).publish_date).toEqual(errs);
  });

  it('removal must be now or later and after publication', () => {
    const d = (publish_date: string, delete_date: string) =>
      checkPost(post({ publish_date, delete_date }), [], NOW).delete_date;
    expect(d('', '2026-11-24 10:31:00')).toBeUndefined();
    expect(d('', '2026-11-24 10:29:00')).toEqual([ja.postDateFromNow]);
    expect(d('2026-11-25 09:00:00', '2026-11-25 09:00:01')).toBeUndefined();
    expect(d('2026-11-25 09:00:00', '2026-11-25 09:00:00')).toEqual([ja.postDeleteAfterPublish]);
    expect(d('2026-11-25 09:00:00', '2026-11-24 12:00:00')).toEqual([ja.postDeleteAfterPublish]);
    expect(d('', 'tomorrow')).toEqual([ja.postDateFormat]);
  });

  it('reads and writes Tokyo time', () => {
    expect(parseTokyoDateTime('2026-11-24 10:30:20')).toBe(NOW.getTime());
    expect(parseTokyoDateTime('2026-01-01 00:00:00')).toBe(Date.parse('2025-12-31T15:00:00Z'));
    expect(parseTokyoDateTime('2026-11-24 24:00:00')).toBeNull();
    expect(parseTokyoDateTime('2028-02-29 00:00:00')).not.toBeNull();
    expect(parseTokyoDateTime('2027-02-29 00:00:00')).toBeNull();
    expect(formatTokyoDateTime(NOW.getTime())).toBe('2026-11-24 10:30:20');
  });
});

describe('splitPost (Facebook and X split photos from videos)', () => {
  const v2 = { ...video, name: 'w.mov', ext: 'mov' };
  it.each<[PublisherKey, MediaMeta[], MediaMeta[][]]>([
    ['facebook', [photo, video], [[photo], [video]]],
    ['twitter', [photo, photo, video], [[photo, photo], [video]]],
    ['twitter', [video, photo], [[photo], [video]]],
    ['facebook', [video, v2], [[video], [v2]]],
    ['facebook', [photo, photo], [[photo, photo]]],
    ['facebook', [video], [[video]]],
    ['twitter', [], [[]]],
    ['instagram', [photo, video], [[photo, video]]],
    ['google_my_business', [photo], [[photo]]],
  ])('%s %#', (ch, media, groups) => {
    const parts = splitPost(ch, media);
    expect(parts.map((p) => p.media)).toEqual(groups);
    expect(parts.map((p) => p.withText)).toEqual(groups.map((_g, i) => i === 0));
  });

  it('judges an unknown kind by its extension', () => {
    const odd = { kind: 'unknown' as const, ext: 'mp4' };
    const pic = { kind: 'image' as const };
    expect(splitPost('twitter', [pic, odd]).map((p) => p.media)).toEqual([[pic], [odd]]);
  });
});
