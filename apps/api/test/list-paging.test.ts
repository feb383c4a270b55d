import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublisherKey } from '@tenpo/domain';
import { createChannels } from '../src/channels';
import { credentialHandle, type Grant, type GrantAccess } from '../src/channels/channel';
import { loadConfig } from '../src/config';

/**
 * Our clients page the providers' post lists as the providers document them: the documented
 * answers in fixtures/provider-paging (the sandbox's own test reads the same files) are served
 * page by page, each only to a request that carries the cursor the page before it gave, under
 * the provider's own parameter name. The client reads every page back to `since` and no further.
 */
const FIXTURES = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'provider-paging');

type Fixture = {
  cursorParam: string;
  since: string;
  pages: { cursor: string | null; response: unknown }[];
};
const fixture = (name: string): Fixture =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Fixture;

const CASES: { key: PublisherKey; file: string; path: RegExp; texts: string[] }[] = [
  {
    key: 'facebook',
    file: 'facebook-published-posts',
    path: /\/104857392017465\/published_posts$/,
    texts: ['four', 'three', 'two', 'one'],
  },
  {
    key: 'instagram',
    file: 'instagram-media',
    path: /\/17841400000000001\/media$/,
    texts: ['four', 'three', 'two'],
  },
  {
    key: 'twitter',
    file: 'x-user-tweets',
    path: /\/2\/users\/1701234567890123456\/tweets$/,
    texts: ['four', 'three', 'two', 'one'],
  },
  {
    key: 'google_my_business',
    file: 'google-local-posts',
    path: /\/accounts\/104772635510001234567\/locations\/1234567890123456789\/localPosts$/,
    texts: ['four', 'three', 'two'],
  },
];

const grant: Grant = {
  accessToken: 'USER_TOKEN',
  providerUserId: '1701234567890123456',
  accountId: '104772635510001234567',
  entityId: '1234567890123456789',
  pageId: '104857392017465',
  pageToken: 'PAGE_TOKEN',
  igUserId: '17841400000000001',
};
const access: GrantAccess = { use: (_h, call) => call(grant) };

describe('the post lists settling reads are paged as the providers document', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-paging-'));
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    TENPO_API_KEY: 'paging-key-1',
    PUBLIC_URL: 'http://tenpo.test',
  });
  const clock = { now: () => new Date() };

  for (const c of CASES)
    it(`${c.key}: follows ${fixture(c.file).cursorParam} page by page back to the time asked, no further`, async () => {
      const f = fixture(c.file);
      const asked: (string | null)[] = [];
      const fakeFetch = async (input: string | URL | Request): Promise<Response> => {
        const url = new URL(typeof input === 'string' ? input : input.toString());
        expect(url.pathname).toMatch(c.path);
        const cursor = url.searchParams.get(f.cursorParam);
        asked.push(cursor);
        const page = f.pages.find((p) => p.cursor === cursor);
        if (!page) return new Response('{"error":"no such page"}', { status: 400 });
        return new Response(JSON.stringify(page.response), {
          headers: { 'content-type': 'application/json' },
        });
      };
      const registry = createChannels(config, clock, {
        fetch: fakeFetch as typeof fetch,
      }).registry(access);
      const posts = await registry
        .require(c.key, 'listRecent')
        .listRecent(credentialHandle(1, c.key), { since: new Date(f.since) });
      expect(posts.map((p) => p.text)).toEqual(c.texts);
      // Every documented page asked once, with the cursor the page before gave; none past `since`.
      expect(asked).toEqual(f.pages.map((p) => p.cursor));
    });
});
