import sharp from 'sharp';
import type { APIRequestContext } from '@playwright/test';
import { facebookPosts, GOOGLE, googlePosts, instagramPosts, xPosts } from './providers';
import { expect, gotoSettled, login, test } from './support';

// What each provider holds of the post, read through its own list call (providers.ts): by
// the post's text, so the journeys that post to the same accounts meanwhile are not counted.
const READ: Record<string, (r: APIRequestContext, text: string) => Promise<unknown[]>> = {
  Google: (r, text) => googlePosts(r, GOOGLE.shop, text),
  Facebook: facebookPosts,
  Instagram: instagramPosts,
  X: xPosts,
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
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoSettled(page, '/create-post');
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

  // At the providers (their own list calls): one post on each channel, and no second.
  const readOf = (label: string) => Object.entries(READ).find(([k]) => label.startsWith(k))?.[1];
  for (const label of labels) {
    const read = readOf(label);
    expect(read, label).toBeDefined();
    await expect
      .poll(async () => (await read!(request, text)).length, {
        timeout: 30_000,
        message: `one post at ${label}`,
      })
      .toBe(1);
  }
  await page.waitForTimeout(2000);
  for (const label of labels) expect((await readOf(label)!(request, text)).length, label).toBe(1);

  // The list shows the post with its targets.
  await gotoSettled(page, '/posts');
  await expect(page.getByText(text)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('posts-list.png'), fullPage: true });
});
