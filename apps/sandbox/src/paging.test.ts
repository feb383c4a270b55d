import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  auth,
  buildSandbox,
  facebookUserToken,
  FORM,
  form,
  googleTokens,
  pageToken,
  xTokens,
} from './shared/testing';

/**
 * The post lists Tenpo settles with are paged as the providers document them (ADR 0055): the
 * documented answers in fixtures/provider-paging (the API's client test reads the same files)
 * give the envelope and the cursor parameter; the emulator must answer its first page in that
 * shape, take that parameter, and list every post once, newest first, across its pages.
 */
const FIXTURES = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'provider-paging');
type Fixture = { cursorParam: string; pages: { cursor: string | null; response: unknown }[] };
const fixture = (name: string): Fixture =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Fixture;

/** The envelope's key paths, items left out (their fields follow `fields`, not paging). */
const envelope = (o: unknown, at = ''): string[] =>
  o && typeof o === 'object' && !Array.isArray(o)
    ? Object.entries(o).flatMap(([k, v]) => [
        `${at}${k}`,
        ...(['data', 'localPosts', 'previous', 'previous_token'].includes(k)
          ? []
          : envelope(v, `${at}${k}.`)),
      ])
    : [];
/** Only what is on every first page (a first page has no way back). */
const firstPageShape = (o: unknown) =>
  envelope(o)
    .filter((k) => !/previous/.test(k))
    .sort();

const G = '/sandbox/facebook/graph/v25.0';
const PAGE = '104857392017465';
const IG = '17841400000000101';
const GPARENT =
  '/sandbox/google/mybusiness/v4/accounts/104772635510001234567/locations/4821390157204861230';

let app: FastifyInstance;
beforeEach(async () => {
  ({ app } = await buildSandbox());
  await app.inject({
    method: 'PATCH',
    url: '/sandbox/control/settings',
    payload: {
      fetchMedia: false,
      instagram: { quotaTotal: 1000 },
      google: { editsPerMinutePerProfile: 1000 },
    },
  });
});
afterEach(async () => {
  await app.close();
});

type Page = { body: Record<string, unknown>; next: string | null };

/** Reads every page by the fixture's cursor parameter; checks the first page's shape. */
async function readAll(
  name: string,
  url: (cursor: string | null) => string,
  headers: Record<string, string>,
  nextOf: (body: Record<string, unknown>) => string | null,
  itemsOf: (body: Record<string, unknown>) => { id?: string; name?: string }[],
): Promise<{ ids: string[]; pages: number }> {
  const f = fixture(name);
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  for (; pages < 20; pages += 1) {
    const res = await app.inject({ url: url(cursor), headers });
    expect(res.statusCode, res.body).toBe(200);
    const page: Page = { body: res.json(), next: null };
    if (pages === 0)
      expect(firstPageShape(page.body)).toEqual(firstPageShape(f.pages[0]?.response));
    ids.push(...itemsOf(page.body).map((x) => (x.id ?? x.name) as string));
    page.next = nextOf(page.body);
    if (!page.next) break;
    cursor = page.next;
  }
  return { ids, pages: pages + 1 };
}

describe('the emulators page the post lists as the providers document', () => {
  it('Facebook published_posts: Graph cursors (`after`), `next` absent on the last page', async () => {
    const token = await pageToken(app, await facebookUserToken(app), PAGE);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await app.inject({
        method: 'POST',
        url: `${G}/${PAGE}/feed`,
        headers: FORM,
        payload: form({ message: `投稿 ${String(i)}`, access_token: token }),
      });
      made.push(r.json().id as string);
    }
    const f = fixture('facebook-published-posts');
    const q = (cursor: string | null) =>
      `${G}/${PAGE}/published_posts?fields=id,message,created_time&limit=3&access_token=${token}${cursor ? `&${f.cursorParam}=${cursor}` : ''}`;
    type Paged = { paging?: { next?: string; cursors?: { after?: string } } };
    const read = await readAll(
      'facebook-published-posts',
      q,
      {},
      (b) => ((b as Paged).paging?.next ? ((b as Paged).paging?.cursors?.after ?? null) : null),
      (b) => b.data as { id: string }[],
    );
    expect(read.pages).toBe(3);
    expect(read.ids).toEqual([...made].reverse());
    // `next` is a URL a client may follow as is: it keeps the fields and the token.
    const first = (await app.inject({ url: q(null) })).json() as Paged;
    const next = new URL(first.paging?.next as string);
    const viaNext = await app.inject({ url: `${next.pathname}${next.search}` });
    expect((viaNext.json().data as { id: string; message?: string }[])[0]).toMatchObject({
      id: made[3],
      message: '投稿 3',
    });
  });

  it('Instagram media: Graph cursors (`after`)', async () => {
    const user = await facebookUserToken(app);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const c = await app.inject({
        method: 'POST',
        url: `${G}/${IG}/media`,
        headers: FORM,
        payload: form({
          image_url: `https://media.example/p${String(i)}.jpg`,
          caption: `写真 ${String(i)}`,
          access_token: user,
        }),
      });
      expect(c.statusCode, c.body).toBe(200);
      const p = await app.inject({
        method: 'POST',
        url: `${G}/${IG}/media_publish?creation_id=${c.json().id as string}&access_token=${user}`,
      });
      expect(p.statusCode, p.body).toBe(200);
      made.push(p.json().id as string);
    }
    type Paged = { paging?: { next?: string; cursors?: { after?: string } } };
    const read = await readAll(
      'instagram-media',
      (cursor) =>
        `${G}/${IG}/media?fields=id,caption,timestamp&limit=3&access_token=${user}${cursor ? `&after=${cursor}` : ''}`,
      {},
      (b) => ((b as Paged).paging?.next ? ((b as Paged).paging?.cursors?.after ?? null) : null),
      (b) => b.data as { id: string }[],
    );
    expect(read.pages).toBe(3);
    expect(read.ids).toEqual([...made].reverse());
  });

  it('X user tweets: `meta.next_token` sent back as `pagination_token`', async () => {
    const t = await xTokens(app);
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/sandbox/x/api/2/tweets',
        headers: auth(t.access_token),
        payload: { text: `ツイート ${String(i)}` },
      });
      made.push((r.json().data as { id: string }).id);
    }
    const me = (
      await app.inject({ url: '/sandbox/x/api/2/users/me', headers: auth(t.access_token) })
    ).json().data as { id: string };
    const read = await readAll(
      'x-user-tweets',
      (cursor) =>
        `/sandbox/x/api/2/users/${me.id}/tweets?max_results=5&tweet.fields=created_at${cursor ? `&pagination_token=${cursor}` : ''}`,
      auth(t.access_token),
      (b) => (b.meta as { next_token?: string }).next_token ?? null,
      (b) => b.data as { id: string }[],
    );
    expect(read.pages).toBe(3);
    expect(read.ids).toEqual([...made].reverse());
  });

  it('Google localPosts: `nextPageToken` sent back as `pageToken`', async () => {
    const t = await googleTokens(app);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await app.inject({
        method: 'POST',
        url: `${GPARENT}/localPosts`,
        headers: auth(t.access_token),
        payload: { languageCode: 'ja', summary: `お知らせ ${String(i)}`, topicType: 'STANDARD' },
      });
      expect(r.statusCode, r.body).toBe(200);
      made.push(r.json().name as string);
    }
    const read = await readAll(
      'google-local-posts',
      (cursor) => `${GPARENT}/localPosts?pageSize=3${cursor ? `&pageToken=${cursor}` : ''}`,
      auth(t.access_token),
      (b) => (b.nextPageToken as string | undefined) ?? null,
      (b) => b.localPosts as { name: string }[],
    );
    expect(read.pages).toBe(3);
    expect(read.ids).toEqual([...made].reverse());
  });
});
