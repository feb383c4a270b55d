import sharp from 'sharp';
import type { APIRequestContext } from '@playwright/test';
import { expect, login, test } from './support';

// Where each provider's "create a post" call lands in the sandbox (its own call counter).
const CREATE: Record<string, RegExp> = {
  Google: /^POST .*\/localPosts$/,
  Facebook: /^POST .*\/(feed|photos|videos)$/,
  Instagram: /^POST .*\/media_publish$/,
  X: /^POST .*\/2\/tweets$/,
};

const createsAt = async (request: APIRequestContext, re: RegExp): Promise<number> => {
  const r = await request.get('/sandbox/control/calls', {
    headers: { Accept: 'application/json' },
  });
  const calls = ((await r.json()) as { data: Record<string, number> }).data;
  return Object.entries(calls)
    .filter(([k]) => re.test(k.split('?')[0] ?? k))
    .reduce((n, [, c]) => n + c, 0);
};

test('the shop posts text and a photo to every connected channel: each provider gets it once', async ({
  page,
  request,
}) => {
  // A photo every channel takes: 1200×900 (one of X's sizes), noisy so that it weighs > 10 KB.
  const photo = await sharp({
    create: {
      width: 1200,
      height: 900,
      channels: 3,
      background: '#d0a070',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  const before: Record<string, number> = {};
  for (const [name, re] of Object.entries(CREATE)) before[name] = await createsAt(request, re);

  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/create-post');
  await expect(page.getByRole('heading', { name: '投稿作成' })).toBeVisible();

  // Every connected channel is a target: the tab shown is, and the others are ticked.
  const targets = page.getByRole('group', { name: '投稿先' }).getByRole('checkbox');
  await expect(targets.first()).toBeVisible();
  const labels: string[] = [];
  for (const box of await targets.all()) {
    if (!(await box.isChecked())) await box.check();
    const id = await box.getAttribute('id');
    labels.push((await page.locator(`label[for="${id}"]`).innerText()).trim());
  }
  expect(labels.length).toBeGreaterThanOrEqual(3);

  const text = `春の新メニューのお知らせ ${Date.now()}`;
  await page.getByRole('textbox', { name: '投稿内容' }).fill(text);
  await page.locator('input[type="file"]').setInputFiles({
    name: 'menu.jpg',
    mimeType: 'image/jpeg',
    buffer: photo,
  });
  await expect(page.getByText('1 / ', { exact: false }).first()).toBeVisible();
  const submit = page.getByRole('button', { name: '投稿する' });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText('投稿を受け付けました。')).toBeVisible();

  // At the providers (the sandbox's own counters): one post on each channel, and no second.
  const baseOf = (label: string) =>
    Object.entries(before).find(([k]) => label.startsWith(k))?.[1] ?? 0;
  const reOf = (label: string) => Object.entries(CREATE).find(([k]) => label.startsWith(k))?.[1];
  for (const label of labels) {
    const re = reOf(label);
    expect(re, label).toBeDefined();
    await expect
      .poll(async () => (await createsAt(request, re as RegExp)) - baseOf(label), {
        timeout: 30_000,
        message: `one post at ${label}`,
      })
      .toBe(1);
  }
  await page.waitForTimeout(2000);
  for (const label of labels)
    expect(await createsAt(request, reOf(label) as RegExp), label).toBe(baseOf(label) + 1);

  // The list shows the post with its targets.
  await page.goto('/posts');
  await expect(page.getByText(text)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('posts-list.png'), fullPage: true });
});
