import type { APIRequestContext, Page } from '@playwright/test';
import { expect, login, test } from './support';

/**
 * The Google tab's post types (spec 2 §3; ADR 0030): the shop creates an event, and Google's own
 * API (the sandbox's v4 localPosts.list, read with the shop's documented demo grant) holds one
 * EVENT local post with its title, schedule and call-now button (the listing's own phone).
 */
const S = '/sandbox';
const SHOP = {
  account: '104772635510001234567',
  location: '4821390157204861230',
  refreshToken: '1//0eSandboxDemoGrant-shop-tenpo-example-business-manage',
};

type LocalPost = {
  summary?: string;
  topicType?: string;
  state?: string;
  event?: {
    title?: string;
    schedule?: {
      startDate?: { year: number; month: number; day: number };
      startTime?: { hours?: number; minutes?: number };
      endDate?: { year: number; month: number; day: number };
      endTime?: { hours?: number; minutes?: number };
    };
  };
  callToAction?: { actionType?: string; url?: string };
};

async function shopLocalPosts(request: APIRequestContext, text: string): Promise<LocalPost[]> {
  const t = await request.post(`${S}/google/oauth2/token`, {
    form: {
      grant_type: 'refresh_token',
      refresh_token: SHOP.refreshToken,
      client_id: 'tenpo-sandbox',
      client_secret: 'tenpo-sandbox-secret',
    },
  });
  expect(t.status(), await t.text()).toBe(200);
  const token = ((await t.json()) as { access_token: string }).access_token;
  const r = await request.get(
    `${S}/google/mybusiness/v4/accounts/${SHOP.account}/locations/${SHOP.location}/localPosts?pageSize=100`,
    { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } },
  );
  expect(r.status(), await r.text()).toBe(200);
  const body = (await r.json()) as { localPosts?: LocalPost[] };
  return (body.localPosts ?? []).filter((p) => (p.summary ?? '').includes(text));
}

/** Screenshots for a person to look at, when SHOTS names a directory. */
const shot = async (page: Page, name: string) => {
  const dir = process.env.SHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
};

test('the shop creates an event on the Google tab: Google holds one EVENT post with its fields', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const stamp = `${Date.now()}`;
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/create-post');
  await expect(page.getByRole('heading', { name: '投稿作成' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Google' })).toHaveAttribute('aria-selected', 'true');

  const type = (name: string) => page.getByText(name, { exact: true }).first();
  await expect(page.getByRole('radio', { name: '最新情報' })).toBeChecked();
  await page.getByRole('textbox', { name: '投稿内容' }).fill(`試飲会のご案内 ${stamp}`);
  // Call now dials the listing's main phone, read from Google (GET /entity/basic-information).
  await page.getByRole('combobox', { name: 'ボタンの種類' }).click();
  await page.getByRole('option', { name: '今すぐ電話' }).click();
  const phone = page.getByRole('textbox', { name: '電話番号' });
  await expect(phone).toHaveValue('03-6418-2201');
  await expect(phone).toHaveAttribute('readonly');
  await shot(page, 'news');

  await type('特典').click();
  await expect(page.getByRole('textbox', { name: 'クーポンコード' })).toBeVisible();
  await page.getByRole('textbox', { name: 'タイトル' }).fill('秋の試飲会');
  await page.getByRole('textbox', { name: 'クーポンコード' }).fill('TENPO10');
  await page.getByRole('textbox', { name: '特典利用のリンク' }).fill('ftp://x');
  await expect(
    page.getByText(
      '特典利用のリンクには http:// または https:// で始まる URL を入力してください。',
    ),
  ).toBeVisible();
  await shot(page, 'offer');
  await page.getByRole('textbox', { name: '特典利用のリンク' }).fill('');

  await type('イベント').click();
  await expect(page.getByRole('textbox', { name: 'クーポンコード' })).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Facebook' })).toBeDisabled();
  const start = page.locator('input[type="datetime-local"]').nth(0);
  const end = page.locator('input[type="datetime-local"]').nth(1);
  await start.fill('2030-01-10T10:00');
  await end.fill('2030-01-10T09:00');
  await expect(page.getByText('終了日時は開始日時より後の日時を指定してください。')).toBeVisible();
  await shot(page, 'event-error');
  await end.fill('2030-01-10T17:30');
  await expect(page.getByText('終了日時は開始日時より後の日時を指定してください。')).toBeHidden();
  await shot(page, 'event');

  await page.getByRole('button', { name: '投稿する' }).click();
  await expect(page.getByText('投稿を受け付けました。')).toBeVisible();

  await expect
    .poll(async () => (await shopLocalPosts(request, stamp)).length, { timeout: 60_000 })
    .toBe(1);
  const [post] = await shopLocalPosts(request, stamp);
  expect(post).toMatchObject({
    topicType: 'EVENT',
    summary: `試飲会のご案内 ${stamp}`,
    event: {
      title: '秋の試飲会',
      schedule: {
        startDate: { year: 2030, month: 1, day: 10 },
        startTime: { hours: 10 },
        endDate: { year: 2030, month: 1, day: 10 },
        endTime: { hours: 17, minutes: 30 },
      },
    },
    callToAction: { actionType: 'CALL' },
  });
});
