import type { Page } from '@playwright/test';
import {
  addFault,
  clearFault,
  faultById,
  GOOGLE,
  googlePosts,
  type GoogleLocation,
} from './providers';
import { expect, gotoSettled, login, reloadSettled, test } from './support';

// Issue 9's journeys with several stores and with a provider's failure, through the built
// product and the sandbox; every count is read from the providers' own list calls.

/** The row of /posts that holds `text`. */
const postRow = (page: Page, text: string) =>
  page.getByRole('table', { name: '投稿一覧' }).getByRole('row').filter({ hasText: text });

test('an agency selects three stores and posts once: one post per store at Google, once', async ({
  page,
  request,
}) => {
  const stores: [string, GoogleLocation][] = [
    ['カフェ・ミナト 渋谷店', GOOGLE.minatoShibuya],
    ['カフェ・ミナト 新宿店', GOOGLE.minatoShinjuku],
    ['カフェ・ミナト 池袋店', GOOGLE.minatoIkebukuro],
  ];
  const text = `3店舗同時のお知らせ ${Date.now()}`;

  await login(page, 'agency@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole('button', { name: 'カフェ・ミナト 渋谷店 ダッシュボード' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page
    .getByRole('navigation', { name: 'メインメニュー' })
    .getByRole('link', { name: '投稿一覧' })
    .click();
  await page.getByRole('link', { name: '新規投稿' }).click();
  await expect(page).toHaveURL(/\/create-post$/);

  // The store selector takes several stores on the post form.
  const selector = page.getByRole('button', { name: '店舗を選択' });
  await selector.click();
  const dialog = page.getByRole('dialog', { name: '店舗を選択' });
  for (const [name] of stores) {
    const box = dialog.getByRole('checkbox', { name });
    if (!(await box.isChecked())) await box.check();
  }
  await dialog.getByRole('button', { name: '選択' }).click();
  await expect(selector).toHaveText('3 店舗を選択中');
  await expect(page).toHaveURL(/\/create-post$/);
  await expect(page.getByText('選択中の 3 店舗に投稿します')).toBeVisible();

  // The agency's stores are connected to Google only: that is the one tab, and the target.
  await expect(page.getByRole('tab')).toHaveText(['Google']);
  await page.getByRole('textbox', { name: '投稿内容' }).fill(text);
  await page.getByRole('button', { name: '投稿する' }).click();
  await expect(page.getByText('投稿を受け付けました。')).toBeVisible();

  // At Google: each store's location has the post once, and still once a little later.
  for (const [name, at] of stores)
    await expect
      .poll(async () => (await googlePosts(request, at, text)).length, {
        timeout: 30_000,
        intervals: [500, 1000],
        message: `one post at ${name}`,
      })
      .toBe(1);
  await page.waitForTimeout(2000);
  for (const [name, at] of stores)
    expect((await googlePosts(request, at, text)).length, name).toBe(1);
  // Nowhere else: the company's fourth listing (not selected, not connected) has none.
  expect(
    (await googlePosts(request, { ...GOOGLE.minatoShibuya, location: '7215038469920417304' }, text))
      .length,
  ).toBe(0);

  // /posts, for the three stores, shows the one submission as a line per store.
  await gotoSettled(page, '/posts');
  await expect(page).toHaveURL(/\/posts$/);
  await expect(postRow(page, text)).toHaveCount(3);
  for (const [name] of stores)
    await expect(postRow(page, text).getByText(`${name} / Google`)).toBeVisible();
  await expect(postRow(page, text).getByText('公開済み', { exact: true })).toHaveCount(3);
});

test('a target the provider refused shows why on /posts, and a retry from there posts it once', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const text = `再試行のお知らせ ${Date.now()}`;
  // Google answers 503 to every post the trial shop makes, until the switch is cleared.
  const fault = await addFault(request, {
    provider: 'google',
    account: 'trial@tenpo.example',
    method: 'POST',
    path: '/localPosts',
    kind: 'server_error',
    status: 503,
    count: 'until_cleared',
  });
  let cleared = false;
  try {
    await login(page, 'trial@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    await gotoSettled(page, '/create-post');
    await expect(page.getByRole('tab')).toHaveText(['Google']);
    await page.getByRole('textbox', { name: '投稿内容' }).fill(text);
    await page.getByRole('button', { name: '投稿する' }).click();
    await expect(page.getByText('投稿を受け付けました。')).toBeVisible();

    // The job tries again with back-off, then gives the target up as failed, with its reason.
    await gotoSettled(page, '/posts');
    const row = postRow(page, text);
    await expect(row).toHaveCount(1);
    await expect(async () => {
      await reloadSettled(page);
      await expect(row.getByText('失敗', { exact: true })).toBeVisible({ timeout: 15_000 });
    }).toPass({ timeout: 100_000, intervals: [2000] });
    await expect(row.getByText('Googleへの投稿に失敗しました。')).toBeVisible();
    await expect(
      row.getByText('Googleに接続できませんでした。しばらくしてから再度お試しください。'),
    ).toBeVisible();
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('posts-failed.png'), fullPage: true });

    // Google was asked (and refused) and holds nothing.
    expect((await faultById(request, fault.id))?.fired ?? 0).toBeGreaterThan(0);
    expect(await googlePosts(request, GOOGLE.trial, text)).toHaveLength(0);

    // Google is back; the shop retries the target from the list.
    await clearFault(request, fault.id);
    cleared = true;
    await row.getByRole('button', { name: 'Google 再試行' }).click();
    await expect(page.getByText('再試行を受け付けました。')).toBeVisible();
    await expect
      .poll(async () => (await googlePosts(request, GOOGLE.trial, text)).length, {
        timeout: 30_000,
        intervals: [500, 1000],
        message: 'the retried post at Google',
      })
      .toBe(1);
    await expect(async () => {
      await reloadSettled(page);
      await expect(row.getByText('公開済み', { exact: true })).toBeVisible({ timeout: 15_000 });
    }).toPass({ timeout: 45_000, intervals: [1000] });
    await expect(row.getByText('Googleへの投稿に失敗しました。')).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Google 再試行' })).toHaveCount(0);
    await page.waitForTimeout(2000);
    expect(await googlePosts(request, GOOGLE.trial, text)).toHaveLength(1);
    await page.screenshot({ path: test.info().outputPath('posts-retried.png'), fullPage: true });
  } finally {
    if (!cleared) await clearFault(request, fault.id);
  }
});

test('a post Google rejects in its review shows failed on /posts with the reason, once at Google', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // The sandbox's Google rejects in its review any post whose text holds its marker.
  const text = `審査で却下されるお知らせ ${Date.now()} sandbox:reject`;
  await login(page, 'trial@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoSettled(page, '/create-post');
  await page.getByRole('textbox', { name: '投稿内容' }).fill(text);
  await page.getByRole('button', { name: '投稿する' }).click();
  await expect(page.getByText('投稿を受け付けました。')).toBeVisible();

  await gotoSettled(page, '/posts');
  const row = postRow(page, text);
  await expect(row).toHaveCount(1);
  await expect(async () => {
    await reloadSettled(page);
    await expect(row.getByText('失敗', { exact: true })).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 60_000, intervals: [1000] });
  await expect(row.getByText('Googleへの投稿に失敗しました。')).toBeVisible();
  await expect(row.getByText(/Googleの審査で投稿が承認されませんでした。/)).toBeVisible();
  await expect(row.getByRole('button', { name: 'Google 再試行' })).toBeVisible();
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('posts-rejected.png'), fullPage: true });

  // At Google: the one post Tenpo made, in the state REJECTED; never sent again.
  await page.waitForTimeout(2000);
  const atGoogle = await googlePosts(request, GOOGLE.trial, text);
  expect(atGoogle.map((p) => p.state)).toEqual(['REJECTED']);
});
