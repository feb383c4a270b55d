import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { expect, gotoSettled, login, test } from './support';

// Issue 11 item 3 on the built product: the shop copies its knowledge tag from
// /add-knowledge-tag, a page of "its own site" (served here on another port, with a strict CSP)
// includes it, and that page then carries the store's LocalBusiness JSON-LD and its marked
// fields filled in; step 3 then reports the tag seen, from the embed calls.

type Info = {
  core_information: {
    name: string;
    address: { postalCode: string | null; address1: string | null };
    main_phone: string | null;
  };
  contact_website_apps: { website_url: { url: string | null } };
  business_details: { hours: unknown[] } | null;
};
type LdHours = { '@type': string; dayOfWeek: string[]; opens: string; closes: string };
type Ld = Record<string, unknown> & {
  address?: Record<string, string>;
  openingHoursSpecification?: LdHours[];
};

async function apiGet<T>(page: Page, request: APIRequestContext, path: string): Promise<T> {
  // The page rotates its token on route changes: read it afresh, and ask again once refused.
  for (let attempt = 0; ; attempt++) {
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const apiKey = await page.locator('meta[name="tenpo-api-key"]').getAttribute('content');
    const r = await request.get(`/api${path}`, {
      headers: {
        Authorization: `Bearer ${token ?? ''}`,
        'X-Api-Key': apiKey ?? '',
        Accept: 'application/json',
      },
    });
    if (r.status() === 401 && attempt < 5) {
      await page.waitForTimeout(500);
      continue;
    }
    expect(r.status(), `${path}: ${await r.text()}`).toBe(200);
    return ((await r.json()) as { data: T }).data;
  }
}

/** Spec 2 §3's hours as schema.org says them: what the JSON-LD must carry for this store. */
const expectedHours = (hours: unknown[]): Map<string, string[]> => {
  const days: Record<string, string> = {
    MONDAY: 'Monday',
    TUESDAY: 'Tuesday',
    WEDNESDAY: 'Wednesday',
    THURSDAY: 'Thursday',
    FRIDAY: 'Friday',
    SATURDAY: 'Saturday',
    SUNDAY: 'Sunday',
  };
  const hm = (t: { hours?: number; minutes?: number } | null | undefined, end: boolean) =>
    end && (t?.hours ?? 0) >= 24
      ? '23:59'
      : `${String(t?.hours ?? 0).padStart(2, '0')}:${String(t?.minutes ?? 0).padStart(2, '0')}`;
  const out = new Map<string, string[]>();
  for (const h of hours as {
    openDay: string;
    openTime?: { hours?: number; minutes?: number } | null;
    closeTime: { hours?: number; minutes?: number };
  }[]) {
    const key = `${hm(h.openTime, false)}-${hm(h.closeTime, true)}`;
    out.set(key, [...(out.get(key) ?? []), days[h.openDay] ?? h.openDay]);
  }
  return out;
};

/**
 * A site with the tag: one page, on its own origin, that allows scripts from Tenpo only. `host`
 * is the name the browser uses for it (the config maps every `*.example` name to this machine),
 * so the page can stand on the store's own website host.
 */
async function shopSite(
  tag: string,
  host = '127.0.0.1',
): Promise<{ origin: string; close: () => Promise<void> }> {
  const html = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>カフェのサイト</title>
${tag}
</head><body>
<h1 data-tenpo-field="name">（店舗名）</h1>
<p>住所: <span data-kt-field="address">（住所）</span></p>
<p>電話: <a data-tenpo-field="telephone" href="#">（電話番号）</a></p>
<p>営業時間: <span data-kt-field="hours">（営業時間）</span></p>
<p><a data-tenpo-field="url" href="#">（ウェブサイト）</a></p>
<p data-tenpo-field="no-such-field">そのまま</p>
</body></html>`;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src ${baseURL}; connect-src ${baseURL}`,
    });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('the shop installs its knowledge tag on its own page, which then carries its LocalBusiness', async ({
  page,
  request,
  browser,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoSettled(page, '/knowledge-tag');
  const tagCall = page.waitForRequest(/\/api\/knowledge-tag\?user_id=\d+$/);
  await page.getByRole('link', { name: 'ナレッジタグを追加' }).click();
  const storeId = Number(new URL((await tagCall).url()).searchParams.get('user_id'));
  await expect(page).toHaveURL(/\/add-knowledge-tag$/);
  const shown = page.getByTestId('knowledge-tag-script');
  await expect(shown).toContainText(`<script src="${baseURL}/api/knowledge-tag/embed?api_key=`);
  // On a fresh data folder the tag has not been seen yet (a retry of this journey finds it seen).
  const seenBefore = await apiGet<{
    seen: { first_seen_at: string | null; embed_count: number };
  }>(page, request, `/knowledge-tag?user_id=${storeId}`);
  if (seenBefore.seen.first_seen_at === null)
    await expect(page.getByRole('status')).toHaveText(
      'まだナレッジタグの読み込みを確認できていません。',
    );

  // Step 1: copy the tag, as the shop would.
  await page.getByRole('button', { name: 'スクリプトタグをコピー', exact: true }).click();
  await expect(
    page.getByRole('button', { name: 'スクリプトタグをコピー', exact: true }),
  ).toHaveText('コピーしました');
  const tag = await page.evaluate(() => navigator.clipboard.readText());
  expect(tag).toBe(await shown.textContent());
  expect(tag).toMatch(/^<script src="[^"]+&app_key=[\w-]+&entity_id=\d+"><\/script>$/);

  const info = await apiGet<Info>(page, request, `/entity/basic-information?user_id=${storeId}`);

  const site = await shopSite(tag);
  let own: Awaited<ReturnType<typeof shopSite>> | null = null;
  try {
    const shop = await context.newPage();
    const embedCall = shop.waitForResponse(/\/api\/knowledge-tag\/embed\?/);
    await shop.goto(`${site.origin}/`);
    expect((await embedCall).status()).toBe(200);

    // The JSON-LD the script added: valid JSON, a LocalBusiness, the store's facts.
    const blocks = shop.locator('script[type="application/ld+json"]');
    await expect(blocks).toHaveCount(1);
    const ld = JSON.parse((await blocks.textContent()) ?? '') as Ld;
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('LocalBusiness');
    expect(ld.name).toBe(info.core_information.name);
    expect(ld.address?.['@type']).toBe('PostalAddress');
    expect(ld.address?.postalCode).toBe(info.core_information.address.postalCode);
    expect(ld.address?.streetAddress).toContain(info.core_information.address.address1 ?? '');
    expect(ld.telephone).toBe(info.core_information.main_phone);
    // sameAs: the store's connected Facebook page and Instagram account, as Tenpo shows them.
    const rows = await apiGet<
      {
        publisher_key: string;
        status: number;
        entity_id: string | null;
        location_name: string | null;
      }[]
    >(page, request, `/publisher?user_id=${storeId}`);
    const on = (key: string) =>
      rows.find((r) => r.publisher_key === key && [1, 2].includes(r.status));
    const fb = on('facebook');
    const ig = on('instagram');
    expect(fb && ig, 'the demo shop has Facebook and Instagram connected').toBeTruthy();
    expect(ld.sameAs).toEqual([
      `https://www.facebook.com/${fb?.entity_id ?? ''}`,
      `https://www.instagram.com/${(ig?.location_name ?? '').replace(/^@/, '')}`,
    ]);
    // Hours: exactly the store's, as schema.org writes them (none when the store has none).
    const want = expectedHours(info.business_details?.hours ?? []);
    const got = new Map(
      (ld.openingHoursSpecification ?? []).map((s) => [`${s.opens}-${s.closes}`, s.dayOfWeek]),
    );
    expect(got).toEqual(want);

    // The page's marked fields, under both brand variants' attribute names.
    await expect(shop.locator('h1[data-tenpo-field="name"]')).toHaveText(
      info.core_information.name,
    );
    await expect(shop.locator('[data-kt-field="address"]')).toContainText(
      `〒${info.core_information.address.postalCode ?? ''}`,
    );
    await expect(shop.locator('[data-tenpo-field="telephone"]')).toHaveText(
      info.core_information.main_phone ?? '',
    );
    const siteUrl = info.contact_website_apps.website_url.url ?? '';
    await expect(shop.locator('a[data-tenpo-field="url"]')).toHaveAttribute('href', siteUrl);
    await expect(shop.locator('[data-tenpo-field="no-such-field"]')).toHaveText('そのまま');
    if (want.size > 0) await expect(shop.locator('[data-kt-field="hours"]')).toContainText(':');
    await shop.close();

    // Step 3: the tag has really been seen, on the shop's site.
    await page.getByRole('button', { name: '再確認' }).click();
    await expect(page.getByRole('status')).toContainText('ナレッジタグの設置を確認しました。');
    await expect(page.getByRole('status')).toContainText(`（${site.origin}）`);
    await expect(page.getByRole('status')).toContainText(
      `読み込み回数: ${seenBefore.seen.embed_count + 1}`,
    );
    // This page is not on the website the store's listing names: step 3 says so.
    await expect(page.getByRole('status')).toContainText(
      `登録されているウェブサイト（${new URL(siteUrl).origin}）とは別のサイトで読み込まれました。`,
    );

    // Finish: the analytics option "always on", recorded; the script then counts a page view.
    await page.getByRole('button', { name: '完了' }).click();
    const dialog = page.getByRole('dialog', { name: 'アクセス解析の設定' });
    await dialog.getByRole('radio', { name: '常に計測する' }).check();
    await dialog.getByRole('button', { name: '保存して完了' }).click();
    await expect(page).toHaveURL(/\/knowledge-tag$/);
    const tagState = () =>
      apiGet<{ analytics_option: number; view_count: number }>(
        page,
        request,
        `/knowledge-tag?user_id=${storeId}`,
      );
    const base = await tagState();
    expect(base.analytics_option).toBe(0);
    // A new visitor (no cached script) on the other site: the tag works, the view is not counted
    // (views count only on the store's own website, issue 22 item 10).
    const visitor = await browser.newContext();
    const again = await visitor.newPage();
    await again.goto(`${site.origin}/`);
    await expect(again.locator('script[type="application/ld+json"]')).toHaveCount(1);
    await again.waitForLoadState('networkidle');
    expect((await tagState()).view_count).toBe(base.view_count);
    // The same page on the store's own website host counts.
    own = await shopSite(tag, new URL(siteUrl).hostname);
    await again.goto(`${own.origin}/`);
    await expect(again.locator('script[type="application/ld+json"]')).toHaveCount(1);
    await expect.poll(async () => (await tagState()).view_count).toBe(base.view_count + 1);
    await visitor.close();

    // Per-user opt-in: a visitor counts only once the site has asked and they agreed.
    await gotoSettled(page, '/add-knowledge-tag');
    await page.getByRole('button', { name: '完了' }).click();
    await page
      .getByRole('dialog', { name: 'アクセス解析の設定' })
      .getByRole('radio', { name: '閲覧者が同意した場合のみ計測する（オプトイン）' })
      .check();
    await page.getByRole('button', { name: '保存して完了' }).click();
    await expect(page).toHaveURL(/\/knowledge-tag$/);
    const careful = await browser.newContext();
    const reader = await careful.newPage();
    const beacons: string[] = [];
    reader.on('request', (r) => {
      if (r.url().includes('/api/knowledge-tag/view?')) beacons.push(r.url());
    });
    await reader.goto(`${own.origin}/`);
    await expect(reader.locator('script[type="application/ld+json"]')).toHaveCount(1);
    await reader.waitForLoadState('networkidle');
    expect(beacons).toEqual([]);
    await reader.evaluate(() =>
      (window as unknown as { tenpoKnowledgeTag: { optIn: () => void } }).tenpoKnowledgeTag.optIn(),
    );
    await expect.poll(async () => (await tagState()).view_count).toBe(base.view_count + 2);
    expect(beacons).toHaveLength(1);
    await careful.close();
  } finally {
    await site.close();
    await own?.close();
  }
});
