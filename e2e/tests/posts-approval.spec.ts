import type { Page } from '@playwright/test';
import { GOOGLE, googlePosts } from './providers';
import { expect, gotoSettled, login, settled, test } from './support';

const CLINIC = '整体院 ほぐし庵 横浜';
const SHINJUKU = 'カフェ・ミナト 新宿店';

/** The agency's rule for posts, set as the test needs it (above the posts list). */
async function postRule(page: Page, on: boolean) {
  const toggle = page.getByRole('switch', { name: /^店舗の投稿に承認を必須にする/ });
  await expect(toggle).toBeVisible();
  await expect(toggle).toBeEnabled();
  if ((await toggle.isChecked()) !== on) {
    await toggle.click({ force: true });
    await expect(page.getByText('投稿の承認の設定を保存しました。').first()).toBeVisible();
  }
  await expect(toggle).toBeChecked({ checked: on });
}

test('with its rule on, an agency’s post waits for each store: the clinic approves and Google gets it once; the other, withdrawn, is never sent', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const text = `年末年始の営業時間のお知らせです。(${Date.now()})`;

  await login(page, 'agency@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole('button', { name: `${SHINJUKU} ダッシュボード` }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page
    .getByRole('navigation', { name: 'メインメニュー' })
    .getByRole('link', { name: '投稿一覧' })
    .click();
  await expect(page).toHaveURL(/\/posts/);
  await settled(page);
  await page.getByRole('button', { name: '店舗を選択' }).click();
  const selector = page.getByRole('dialog', { name: '店舗を選択' });
  await selector.getByRole('checkbox', { name: CLINIC }).check();
  await selector.getByRole('button', { name: '選択' }).click();
  await settled(page);
  await postRule(page, true);

  await gotoSettled(page, '/create-post');
  await expect(
    page.getByText('選択中の店舗の投稿は、承認されてから予約どおりに投稿されます。'),
  ).toBeVisible();
  await page.getByRole('textbox', { name: /投稿内容/ }).fill(text);
  await page.getByRole('button', { name: '投稿する' }).click();
  await expect(
    page.getByText('投稿を作成しました。承認されると予約どおりに投稿されます。').first(),
  ).toBeVisible();

  // Held: nothing at Google for either store, and the agency cannot approve its own post.
  await gotoSettled(page, '/posts');
  const requests = page.getByTestId(/^post-approval-\d+$/).filter({ hasText: text });
  await expect(requests).toHaveCount(2);
  await expect(page.getByRole('button', { name: /の投稿を承認$/ })).toHaveCount(0);
  expect(await googlePosts(request, GOOGLE.hogushian, text)).toHaveLength(0);

  // The clinic's owner is mailed, signs in and approves: its date has passed, so it goes now.
  const owner = await (await browser.newContext()).newPage();
  await expect(async () => {
    const mails = await request.get(
      `/sandbox/mail?to=${encodeURIComponent('store10@tenpo.example')}`,
      { headers: { Accept: 'application/json' } },
    );
    const data = ((await mails.json()) as { data: { subject: string; text: string }[] }).data;
    expect(data.some((m) => m.subject.includes('投稿の承認依頼') && m.text.includes(text))).toBe(
      true,
    );
  }).toPass({ timeout: 30_000 });
  await login(owner, 'store10@tenpo.example');
  // Signed in before going on: a navigation right after the click can cut the sign-in short.
  await expect(owner).not.toHaveURL(/\/login/);
  await gotoSettled(owner, '/posts');
  const mine = owner.getByTestId(/^post-approval-\d+$/).filter({ hasText: text });
  await expect(mine).toHaveCount(1);
  await mine.getByRole('button', { name: `${CLINIC}の投稿を承認` }).click();
  await expect(
    owner.getByText('承認しました。予約日時を過ぎているため、すぐに投稿します。').first(),
  ).toBeVisible();
  await owner.context().close();
  await expect(async () => {
    expect(await googlePosts(request, GOOGLE.hogushian, text)).toHaveLength(1);
  }).toPass({ timeout: 60_000, intervals: [2_000] });

  // The agency withdraws the other store's: it is never sent.
  await gotoSettled(page, '/posts');
  await page.getByRole('button', { name: `${SHINJUKU}の投稿の承認依頼を取り下げ` }).click();
  await expect(
    page.getByText('承認の依頼を取り下げました。この投稿は送信されません。').first(),
  ).toBeVisible();
  await expect(page.getByTestId(/^post-approval-\d+$/).filter({ hasText: text })).toHaveCount(0);
  expect(await googlePosts(request, GOOGLE.minatoShinjuku, text)).toHaveLength(0);
  expect(await googlePosts(request, GOOGLE.hogushian, text)).toHaveLength(1);
  await postRule(page, false);
});
