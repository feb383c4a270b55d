import type { Page } from '@playwright/test';
import { expectTrapped } from './keyboard';
import { expect, login, test } from './support';

const mainMenu = 'メインメニュー';

/** newshop, signed in (its Google is connected from the second step on), on アカウント連携. */
async function openConnectAccount(page: Page): Promise<void> {
  await login(page, 'newshop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/connect-account');
}

/** A button in a publisher's row of the アカウント連携 table. */
const rowButton = (page: Page, key: string, name: string) =>
  page.getByTestId(`publisher-${key}`).getByRole('button', { name: new RegExp(name) });

// newshop's journey from a first login to every channel connected, in order: each step starts
// where the previous one left the account (one serial group, so no other worker touches it).
test.describe.serial('a new shop connects its channels through the sandbox', () => {
  test('terms first (closing logs out), then google-my-business', async ({ page }) => {
    await login(page, 'newshop@tenpo.example');
    const dialog = page.getByRole('dialog', { name: '利用規約' });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    // With the keyboard only (issue 7 §3.4): focus in and kept in; Escape closes, which logs out.
    await expectTrapped(page, dialog);
    // Half the screen wide (spec 1 §2).
    const box = await dialog.boundingBox();
    const width = page.viewportSize()?.width ?? 0;
    expect(Math.round(((box?.width ?? 0) / width) * 100)).toBe(50);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await login(page, 'newshop@tenpo.example');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: '同意しない（ログアウト）' }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await login(page, 'newshop@tenpo.example');
    await expect(dialog).toBeVisible();
    const agree = dialog.getByRole('button', { name: '同意して始める' });
    await expect(agree).toBeDisabled();
    await dialog.getByRole('checkbox', { name: '利用規約に同意します' }).check();
    await agree.click();
    await expect(page).toHaveURL(/\/google-my-business$/);
    await expect(
      page.getByRole('heading', { name: 'Googleビジネスプロフィール連携' }),
    ).toBeVisible();
    // Any other screen sends it back there.
    await page
      .getByRole('navigation', { name: mainMenu })
      .getByRole('link', { name: '投稿一覧' })
      .click();
    await expect(page).toHaveURL(/\/google-my-business$/);
  });

  test('connects Google on the consent page, picks a location and lands on the dashboard', async ({
    page,
  }) => {
    await login(page, 'newshop@tenpo.example');
    await expect(page).toHaveURL(/\/google-my-business$/);
    await page.getByRole('button', { name: '連携する' }).click();

    // The sandbox's Google consent page: choose the account, allow.
    await expect(page).toHaveURL(/\/sandbox\/google\/accounts\/o\/oauth2\/v2\/auth/);
    await page.locator('input[name="account"][value="newshop@tenpo.example"]').check();
    await page.getByRole('button', { name: '許可 / Allow' }).click();

    await expect(page).toHaveURL(/\/connect-location$/);
    await expect(page.getByRole('heading', { name: 'ビジネス拠点の選択' })).toBeVisible();
    await expect(page.getByRole('table')).toContainText('らーめん 一歩 池袋東口店');
    const confirm = page.getByRole('button', { name: '確認' });
    await expect(confirm).toBeDisabled();
    await page.getByRole('radio', { name: 'らーめん 一歩 新宿西口店' }).check();
    await confirm.click();

    await expect(page).toHaveURL(/\/dashboard$/);
    // Connected now: another screen no longer sends it to google-my-business.
    await page
      .getByRole('navigation', { name: mainMenu })
      .getByRole('link', { name: 'アカウント連携' })
      .click();
    await expect(page).toHaveURL(/\/connect-account$/);
    const google = page.getByTestId('publisher-google_my_business');
    await expect(google).toContainText('らーめん 一歩 新宿西口店');
    await expect(google).toContainText('連携済み');
    await page
      .getByRole('navigation', { name: mainMenu })
      .getByRole('link', { name: '投稿一覧' })
      .click();
    await expect(page).toHaveURL(/\/posts$/);
  });

  test('connects Facebook with a page linked to Instagram, and both show connected', async ({
    page,
  }) => {
    await openConnectAccount(page);
    await rowButton(page, 'facebook', '連携する').click();

    // The sandbox's Facebook login dialog: the first user manages four pages; continue.
    await expect(page).toHaveURL(/\/sandbox\/facebook\/www\//);
    await page.getByRole('button', { name: '続行 / Continue' }).click();

    await expect(page).toHaveURL(/\/facebook\/connect-page$/);
    const table = page.getByRole('table');
    await expect(table).toContainText('テンポ ベーカリー 自由が丘');
    await expect(page.getByText('4 件中 1 〜 4 件を表示')).toBeVisible();
    const confirm = page.getByRole('button', { name: '確認' });
    await expect(confirm).toBeDisabled();
    await page.getByRole('radio', { name: 'カフェ テンポ 渋谷店' }).check();
    await confirm.click();

    await expect(page).toHaveURL(/\/connect-account$/);
    const facebook = page.getByTestId('publisher-facebook');
    const instagram = page.getByTestId('publisher-instagram');
    await expect(facebook).toContainText('カフェ テンポ 渋谷店');
    await expect(facebook).toContainText('連携済み');
    await expect(instagram).toContainText('@cafe_tenpo_shibuya');
    await expect(instagram).toContainText('連携済み');
  });

  test('disconnecting Facebook takes Instagram with it', async ({ page }) => {
    await openConnectAccount(page);
    await rowButton(page, 'facebook', '連携解除').click();
    const dialog = page.getByRole('dialog', { name: '連携の解除' });
    await expect(dialog).toContainText('Instagram の連携も解除されます');
    await dialog.getByRole('button', { name: '連携解除' }).click();
    await expect(page.getByText('連携を解除しました。')).toBeVisible();
    await expect(page.getByTestId('publisher-facebook')).toContainText('未連携');
    await expect(page.getByTestId('publisher-instagram')).toContainText('未連携');
    await expect(page.getByTestId('publisher-google_my_business')).toContainText('連携済み');
  });

  test('connects X through OAuth 2.0 with PKCE', async ({ page }) => {
    await openConnectAccount(page);
    await rowButton(page, 'twitter', '連携する').click();

    await expect(page).toHaveURL(/\/sandbox\/x\/i\/oauth2\/authorize/);
    const url = new URL(page.url());
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    await page.getByRole('button', { name: 'アプリにアクセスを許可 / Authorize app' }).click();

    await expect(page).toHaveURL(/\/connect-account$/);
    const x = page.getByTestId('publisher-twitter');
    await expect(x).toContainText('@tenpo_demo');
    await expect(x).toContainText('連携済み');
  });

  test('a denied consent comes back to connect-account and says so', async ({ page }) => {
    await openConnectAccount(page);
    await rowButton(page, 'facebook', '連携する').click();
    await page.getByRole('button', { name: 'キャンセル / Cancel' }).click();
    await expect(page).toHaveURL(/\/connect-account$/);
    await expect(page.getByText('Facebookとの連携がキャンセルされました。')).toBeVisible();
    await expect(page.getByTestId('publisher-facebook')).toContainText('未連携');
  });
});
