import { describe, expect, it } from 'vitest';
import { ja } from '../messages/ja';
import type { PublisherKey } from '../publishers/publishers';
import {
  checkMedia,
  extOf,
  formatBytes,
  MEDIA_RULES,
  mediaKindOf,
  UPLOAD_MAX_BYTES,
  VIDEO_MAX_BYTES,
  type MediaMeta,
} from './media-rules';

const KB = 1024;
const MB = 1024 * KB;

const img = (over: Partial<MediaMeta> = {}): MediaMeta => ({
  name: 'a.jpeg',
  ext: 'jpeg',
  bytes: 100 * KB,
  width: 1280,
  height: 720,
  kind: 'image',
  ...over,
});
const vid = (over: Partial<MediaMeta> = {}): MediaMeta => ({
  name: 'a.mp4',
  ext: 'mp4',
  bytes: 1 * MB,
  width: 1280,
  height: 720,
  durationSec: 10,
  kind: 'video',
  ...over,
});

const G = 'Google';
const F = 'Facebook';
const I = 'Instagram';
const X = 'X';

describe('media kind by extension (spec 2 §4)', () => {
  it.each([
    ['jpg', 'image'],
    ['JPEG', 'image'],
    ['png', 'image'],
    ['gif', 'image'],
    ['bmp', 'image'],
    ['tif', 'image'],
    ['tiff', 'image'],
    ['heic', 'image'],
    ['webp', 'image'],
    ['mp4', 'video'],
    ['MOV', 'video'],
    ['pdf', 'unknown'],
    ['', 'unknown'],
  ] as const)('%s is %s', (ext, kind) => expect(mediaKindOf(ext)).toBe(kind));

  it('reads the extension of a name', () => {
    expect(extOf('Photo.JPG')).toBe('jpg');
    expect(extOf('a.b.mov')).toBe('mov');
    expect(extOf('noext')).toBe('');
  });
});

describe('the table holds spec 2 §5', () => {
  it.each<[PublisherKey, string[], number]>([
    ['google_my_business', ['jpg', 'jpeg', 'png', 'heic'], 1],
    ['facebook', ['jpeg', 'bmp', 'png', 'gif', 'tiff', 'heic', 'mov', 'mp4'], 80],
    ['instagram', ['jpeg', 'gif', 'png', 'heic', 'mov', 'mp4'], 10],
    ['twitter', ['jpeg', 'gif', 'png', 'heic', 'mov', 'mp4'], 4],
  ])('%s takes %j, at most %i files', (ch, exts, count) => {
    expect(MEDIA_RULES[ch].extensions).toEqual(exts);
    expect(MEDIA_RULES[ch].maxCount).toBe(count);
  });

  it('caps uploads and videos at 20 MB', () => {
    expect(UPLOAD_MAX_BYTES).toBe(20 * MB);
    expect(VIDEO_MAX_BYTES).toBe(20 * MB);
    expect(formatBytes(10 * KB)).toBe('10KB');
    expect(formatBytes(5 * MB)).toBe('5MB');
    expect(formatBytes(1.5 * MB)).toBe('1.5MB');
  });
});

describe('file formats per channel', () => {
  const fmt = {
    google_my_business: ja.mediaFormat(G, 'jpg, jpeg, png, heic'),
    facebook: ja.mediaFormat(F, 'jpeg, bmp, png, gif, tiff, heic, mov, mp4'),
    instagram: ja.mediaFormat(I, 'jpeg, gif, png, heic, mov, mp4'),
    twitter: ja.mediaFormat(X, 'jpeg, gif, png, heic, mov, mp4'),
  } as const;
  // jpg is jpeg and tif is tiff: one format, two names.
  it.each<[PublisherKey, string, boolean]>([
    ['google_my_business', 'jpg', true],
    ['google_my_business', 'jpeg', true],
    ['google_my_business', 'png', true],
    ['google_my_business', 'heic', true],
    ['google_my_business', 'gif', false],
    ['google_my_business', 'bmp', false],
    ['google_my_business', 'tiff', false],
    ['google_my_business', 'webp', false],
    ['facebook', 'jpeg', true],
    ['facebook', 'jpg', true],
    ['facebook', 'bmp', true],
    ['facebook', 'gif', true],
    ['facebook', 'tiff', true],
    ['facebook', 'tif', true],
    ['facebook', 'heic', true],
    ['facebook', 'webp', false],
    ['instagram', 'jpeg', true],
    ['instagram', 'gif', true],
    ['instagram', 'heic', true],
    ['instagram', 'bmp', false],
    ['instagram', 'tiff', false],
    ['twitter', 'png', true],
    ['twitter', 'bmp', false],
    ['twitter', 'tiff', false],
    ['twitter', 'webp', false],
  ])('%s, image .%s allowed: %s', (ch, ext, ok) => {
    // Sizes that every channel's image rules accept (X needs an exact resolution).
    const m = img({ ext, name: `a.${ext}`, width: 1280, height: 720, bytes: 100 * KB });
    const res = checkMedia(ch, [m]);
    if (ok) expect(res).toEqual([]);
    else expect(res).toEqual([fmt[ch]]);
  });

  it.each<[PublisherKey, string]>([
    ['facebook', 'mp4'],
    ['facebook', 'mov'],
    ['instagram', 'mp4'],
    ['instagram', 'mov'],
    ['twitter', 'mp4'],
    ['twitter', 'mov'],
  ])('%s takes .%s videos', (ch, ext) => {
    expect(checkMedia(ch, [vid({ ext, name: `a.${ext}` })])).toEqual([]);
  });

  it('refuses an unknown type with the allowed list', () => {
    expect(checkMedia('instagram', [img({ ext: 'pdf', kind: 'unknown' })])).toEqual([
      fmt.instagram,
    ]);
  });

  it('refuses any video on Google', () => {
    expect(checkMedia('google_my_business', [vid()])).toEqual([ja.mediaVideoNotAllowed(G)]);
    expect(checkMedia('google_my_business', [vid({ ext: 'mov', kind: 'unknown' })])).toEqual([
      ja.mediaVideoNotAllowed(G),
    ]);
  });
});

describe('media counts', () => {
  it.each<[PublisherKey, number, string]>([
    ['google_my_business', 1, G],
    ['facebook', 80, F],
    ['instagram', 10, I],
    ['twitter', 4, X],
  ])('%s takes %i files, not one more', (ch, max, label) => {
    const m = img({ width: 1280, height: 720, bytes: 100 * KB });
    expect(
      checkMedia(
        ch,
        Array.from({ length: max }, () => m),
      ),
    ).toEqual([]);
    expect(
      checkMedia(
        ch,
        Array.from({ length: max + 1 }, () => m),
      ),
    ).toEqual([ja.mediaCountOver(label, max)]);
  });
});

type Row = [string, PublisherKey, Partial<MediaMeta>, string[]];

describe('image limits, both edges', () => {
  const g = (o: Partial<MediaMeta>) => img({ width: 250, height: 250, bytes: 100 * KB, ...o });
  const f = (o: Partial<MediaMeta>) => img({ width: 479, height: 320, bytes: 100 * KB, ...o });
  const i = (o: Partial<MediaMeta>) => img({ width: 600, height: 500, bytes: 100 * KB, ...o });
  const x = (o: Partial<MediaMeta>) => img({ width: 1200, height: 600, bytes: 100 * KB, ...o });
  const rows: Row[] = [
    // Google: 10 KB to 5 MB, at least 250 x 250.
    ['Google 10 KB', 'google_my_business', g({ bytes: 10 * KB }), []],
    [
      'Google 10 KB - 1',
      'google_my_business',
      g({ bytes: 10 * KB - 1 }),
      [ja.mediaSizeSmaller(G, '10KB')],
    ],
    ['Google 5 MB', 'google_my_business', g({ bytes: 5 * MB }), []],
    [
      'Google 5 MB + 1',
      'google_my_business',
      g({ bytes: 5 * MB + 1 }),
      [ja.mediaSizeBigger(G, '5MB')],
    ],
    ['Google 250x250', 'google_my_business', g({}), []],
    [
      'Google 249x250',
      'google_my_business',
      g({ width: 249 }),
      [ja.mediaResolutionSmaller(G, '250×250px')],
    ],
    [
      'Google 250x249',
      'google_my_business',
      g({ height: 249 }),
      [ja.mediaResolutionSmaller(G, '250×250px')],
    ],
    ['Google has no upper resolution', 'google_my_business', g({ width: 8000, height: 8000 }), []],
    // Facebook: 15 MB, PNG 1 MB, minimum 479x246 (both under) and 320x320.
    ['Facebook 15 MB', 'facebook', f({ bytes: 15 * MB }), []],
    ['Facebook 15 MB + 1', 'facebook', f({ bytes: 15 * MB + 1 }), [ja.mediaSizeBigger(F, '15MB')]],
    ['Facebook tiny file', 'facebook', f({ bytes: 1 }), []],
    ['Facebook PNG 1 MB', 'facebook', f({ ext: 'png', bytes: 1 * MB }), []],
    [
      'Facebook PNG 1 MB + 1',
      'facebook',
      f({ ext: 'png', bytes: 1 * MB + 1 }),
      [ja.mediaSizeBigger(F, '1MB')],
    ],
    ['Facebook JPEG 2 MB (the PNG limit is PNG only)', 'facebook', f({ bytes: 2 * MB }), []],
    ['Facebook 320x320', 'facebook', f({ width: 320, height: 320 }), []],
    [
      'Facebook 319x320',
      'facebook',
      f({ width: 319, height: 320 }),
      [ja.mediaResolutionSmaller(F, '320×320px')],
    ],
    [
      'Facebook 320x319',
      'facebook',
      f({ width: 320, height: 319 }),
      [ja.mediaResolutionSmaller(F, '320×320px')],
    ],
    [
      'Facebook 479x246',
      'facebook',
      f({ width: 479, height: 246 }),
      [ja.mediaResolutionSmaller(F, '320×320px')],
    ],
    [
      'Facebook 478x245: both under 479x246, and under 320x320',
      'facebook',
      f({ width: 478, height: 245 }),
      [ja.mediaResolutionSmaller(F, '479×246px'), ja.mediaResolutionSmaller(F, '320×320px')],
    ],
    ['Facebook has no upper resolution', 'facebook', f({ width: 9000, height: 9000 }), []],
    // Instagram: 8 MB, 600x500 to 1936x1936.
    ['Instagram 8 MB', 'instagram', i({ bytes: 8 * MB }), []],
    ['Instagram 8 MB + 1', 'instagram', i({ bytes: 8 * MB + 1 }), [ja.mediaSizeBigger(I, '8MB')]],
    ['Instagram 600x500', 'instagram', i({}), []],
    [
      'Instagram 599x500',
      'instagram',
      i({ width: 599 }),
      [ja.mediaResolutionSmaller(I, '600×500px')],
    ],
    [
      'Instagram 600x499',
      'instagram',
      i({ height: 499 }),
      [ja.mediaResolutionSmaller(I, '600×500px')],
    ],
    ['Instagram 1936x1936', 'instagram', i({ width: 1936, height: 1936 }), []],
    [
      'Instagram 1937x1936',
      'instagram',
      i({ width: 1937, height: 1936 }),
      [ja.mediaResolutionBigger(I, '1936×1936px')],
    ],
    [
      'Instagram 1936x1937',
      'instagram',
      i({ width: 1936, height: 1937 }),
      [ja.mediaResolutionBigger(I, '1936×1936px')],
    ],
    // X: 5 MB, exactly one of four resolutions.
    ['X 5 MB', 'twitter', x({ bytes: 5 * MB }), []],
    ['X 5 MB + 1', 'twitter', x({ bytes: 5 * MB + 1 }), [ja.mediaSizeBigger(X, '5MB')]],
    ['X 1280x720', 'twitter', x({ width: 1280, height: 720 }), []],
    ['X 1200x900', 'twitter', x({ width: 1200, height: 900 }), []],
    ['X 1200x800', 'twitter', x({ width: 1200, height: 800 }), []],
    ['X 1200x600', 'twitter', x({ width: 1200, height: 600 }), []],
  ];
  const xList = '1280×720px、1200×900px、1200×800px、1200×600px';
  rows.push(
    ['X 1199x600', 'twitter', x({ width: 1199 }), [ja.mediaResolutionSmaller(X, xList)]],
    ['X 1200x599', 'twitter', x({ height: 599 }), [ja.mediaResolutionSmaller(X, xList)]],
    [
      'X 1281x720',
      'twitter',
      x({ width: 1281, height: 720 }),
      [ja.mediaResolutionBigger(X, xList)],
    ],
    [
      'X 1200x901',
      'twitter',
      x({ width: 1200, height: 901 }),
      [ja.mediaResolutionBigger(X, xList)],
    ],
  );
  it.each(rows)('%s', (_name, ch, m, expected) => {
    expect(checkMedia(ch, [img(m)])).toEqual(expected);
  });
});

describe('video limits, both edges', () => {
  const rows: Row[] = [
    // The 20 MB video cap sits above every channel's own figure.
    ['Facebook 20 MB', 'facebook', { bytes: 20 * MB }, []],
    ['Facebook 20 MB + 1', 'facebook', { bytes: 20 * MB + 1 }, [ja.mediaVideoOver20Mb]],
    ['Instagram 20 MB + 1', 'instagram', { bytes: 20 * MB + 1 }, [ja.mediaVideoOver20Mb]],
    ['X 20 MB + 1', 'twitter', { bytes: 20 * MB + 1 }, [ja.mediaVideoOver20Mb]],
    // Facebook: max 1920x1080 (either orientation), max 14400 s.
    ['Facebook 1920x1080', 'facebook', { width: 1920, height: 1080 }, []],
    ['Facebook 1080x1920', 'facebook', { width: 1080, height: 1920 }, []],
    [
      'Facebook 1921x1080',
      'facebook',
      { width: 1921, height: 1080 },
      [ja.mediaResolutionBigger(F, '1920×1080px')],
    ],
    [
      'Facebook 1920x1081',
      'facebook',
      { width: 1920, height: 1081 },
      [ja.mediaResolutionBigger(F, '1920×1080px')],
    ],
    ['Facebook tiny video', 'facebook', { width: 16, height: 16, durationSec: 0.1 }, []],
    ['Facebook 14400 s', 'facebook', { durationSec: 14_400 }, []],
    [
      'Facebook 14400.01 s',
      'facebook',
      { durationSec: 14_400.01 },
      [ja.mediaDurationLonger(F, 14_400)],
    ],
    // Instagram: min 1280x720 (either orientation), max 60 s.
    ['Instagram 1280x720', 'instagram', { width: 1280, height: 720 }, []],
    ['Instagram 720x1280 (a reel)', 'instagram', { width: 720, height: 1280 }, []],
    [
      'Instagram 1279x720',
      'instagram',
      { width: 1279, height: 720 },
      [ja.mediaResolutionSmaller(I, '1280×720px')],
    ],
    [
      'Instagram 1280x719',
      'instagram',
      { width: 1280, height: 719 },
      [ja.mediaResolutionSmaller(I, '1280×720px')],
    ],
    ['Instagram has no upper resolution', 'instagram', { width: 3840, height: 2160 }, []],
    ['Instagram 60 s', 'instagram', { durationSec: 60 }, []],
    ['Instagram 60.01 s', 'instagram', { durationSec: 60.01 }, [ja.mediaDurationLonger(I, 60)]],
    // X: min 32x32, max 1920x1200 or 1200x1920, 0.5 to 140 s.
    ['X 32x32', 'twitter', { width: 32, height: 32 }, []],
    ['X 31x32', 'twitter', { width: 31, height: 32 }, [ja.mediaResolutionSmaller(X, '32×32px')]],
    ['X 32x31', 'twitter', { width: 32, height: 31 }, [ja.mediaResolutionSmaller(X, '32×32px')]],
    ['X 1920x1200', 'twitter', { width: 1920, height: 1200 }, []],
    ['X 1200x1920', 'twitter', { width: 1200, height: 1920 }, []],
    [
      'X 1921x1200',
      'twitter',
      { width: 1921, height: 1200 },
      [ja.mediaResolutionBigger(X, '1920×1200px')],
    ],
    [
      'X 1200x1921',
      'twitter',
      { width: 1200, height: 1921 },
      [ja.mediaResolutionBigger(X, '1920×1200px')],
    ],
    [
      'X 1920x1201',
      'twitter',
      { width: 1920, height: 1201 },
      [ja.mediaResolutionBigger(X, '1920×1200px')],
    ],
    ['X 0.5 s', 'twitter', { durationSec: 0.5 }, []],
    ['X 0.49 s', 'twitter', { durationSec: 0.49 }, [ja.mediaDurationShorter(X, 0.5)]],
    ['X 140 s', 'twitter', { durationSec: 140 }, []],
    ['X 140.01 s', 'twitter', { durationSec: 140.01 }, [ja.mediaDurationLonger(X, 140)]],
  ];
  it.each(rows)('%s', (_name, ch, m, expected) => {
    expect(checkMedia(ch, [vid(m)])).toEqual(expected);
  });

  it('keeps each channel figure above the 20 MB cap as data', () => {
    expect(MEDIA_RULES.facebook.video?.maxBytes).toBe(40 * 1024 * MB);
    expect(MEDIA_RULES.instagram.video?.maxBytes).toBe(250 * MB);
    expect(MEDIA_RULES.twitter.video?.maxBytes).toBe(512 * MB);
    expect(MEDIA_RULES.google_my_business.video).toBeNull();
  });
});

describe('messages', () => {
  it('shows a fault shared by several files once', () => {
    const small = img({ width: 100, height: 100 });
    expect(checkMedia('instagram', [small, small, small])).toEqual([
      ja.mediaResolutionSmaller(I, '600×500px'),
    ]);
  });

  it('reports every fault of one file', () => {
    expect(checkMedia('instagram', [img({ bytes: 9 * MB, width: 2000, height: 100 })])).toEqual([
      ja.mediaSizeBigger(I, '8MB'),
      ja.mediaResolutionSmaller(I, '600×500px'),
      ja.mediaResolutionBigger(I, '1936×1936px'),
      ja.mediaAspectRatio(I, '4:5〜1.91:1'),
    ]);
  });

  it('passes an empty list', () => {
    expect(checkMedia('twitter', [])).toEqual([]);
  });
});

describe('Instagram photos: 4:5 to 1.91:1, checked before sending (ADR 0062)', () => {
  const i = (width: number, height: number) => img({ width, height, bytes: 100 * KB });
  const aspect = ja.mediaAspectRatio(I, '4:5〜1.91:1');
  it.each([
    ['4:5 portrait', 1080, 1350, []],
    ['1.91:1 landscape', 1910, 1000, []],
    ['square', 1080, 1080, []],
    ['taller than 4:5', 1080, 1351 + 20, [aspect]],
    ['wider than 1.91:1', 1920, 1000, [aspect]],
  ] as const)('%s', (_name, width, height, want) => {
    expect(checkMedia('instagram', [i(width, height)])).toEqual(want);
  });
  it('is Instagram’s alone, and not for videos', () => {
    expect(checkMedia('facebook', [img({ width: 600, height: 1800 })])).not.toContain(
      ja.mediaAspectRatio(F, '4:5〜1.91:1'),
    );
    expect(checkMedia('instagram', [vid({ width: 720, height: 1280 })])).toEqual([]);
  });
});
