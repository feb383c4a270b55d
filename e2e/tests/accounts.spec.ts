import { expect, login, test } from './support';

const mainMenu = 'メインメニュー';

test.describe('each demo account lands where the spec sends it', () => {
  test('shop: its dashboard, with the full side bar and the payment item', async ({ page }) => {
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    // The tab names the screen the redirects (/ → /overview → /dashboard) ended on.
    await page.waitForLoadState('networkidle');
    await expect(page).toHaveTitle('ダッシュボード | Tenpo');
    const nav = page.getByRole('navigation', { name: mainMenu });
    for (const name of [
      'ダッシュボード',
      'レポート',
      '基本情報',
      'アカウント連携',
      '投稿一覧',
      'お支払い設定',
    ]) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }
    await expect(page.getByTestId('box-view')).toBeVisible();
    await expect(page.getByRole('button', { name: '店舗を選択' })).toHaveCount(0);
  });

  test('trial (running): its dashboard, no payment panel', async ({ page }) => {
    await login(page, 'trial@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('box-view')).toBeVisible();
    await expect(page.getByTestId('pay-required')).toHaveCount(0);
  });

  test('expired trial: the pay-required panel, whose button opens payment settings', async ({
    page,
  }) => {
    await login(page, 'expired@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('pay-required')).toBeVisible();
    await page.getByRole('button', { name: 'お支払い設定へ進む' }).click();
    await expect(page).toHaveURL(/\/register-payment$/);
    // The manual is not behind the panel: it opens whatever the payment state (issue 23 item 10).
    await page.goto('/manual-document');
    await expect(page.getByRole('heading', { name: 'マニュアル' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'ダウンロード' })).toBeVisible();
    await expect(page.getByTestId('pay-required')).toHaveCount(0);
  });

  test('payment failed: the confirm-mail panel', async ({ page }) => {
    await login(page, 'payfail@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('confirm-mail')).toBeVisible();
    await expect(page.getByText('お送りしたメールをご確認ください')).toBeVisible();
  });

  test('agency: the overview of its 12 stores, without side bar or selector', async ({ page }) => {
    await login(page, 'agency@tenpo.example');
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByText('12 件中 1 〜 5 件を表示')).toBeVisible();
    await expect(page.getByRole('navigation', { name: mainMenu })).toHaveCount(0);
    await expect(page.getByRole('button', { name: '店舗を選択' })).toHaveCount(0);
    await page.getByRole('textbox', { name: '検索' }).fill('さぬき');
    await expect(page.getByText('3 件中 1 〜 3 件を表示')).toBeVisible();
  });

  test('group leader: the overview of its group’s 4 stores', async ({ page }) => {
    await login(page, 'leader@tenpo.example');
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByText('4 件中 1 〜 4 件を表示')).toBeVisible();
    await page.getByRole('button', { name: 'アカウントメニュー' }).click();
    await expect(page.getByRole('menuitem', { name: 'アカウント切り替え' })).toBeVisible();
  });

  test('manager: the overview of every store; a manager-only route opens', async ({ page }) => {
    await login(page, 'manager@tenpo.example');
    await expect(page).toHaveURL(/\/overview$/);
    await expect(page.getByRole('table')).toContainText('カフェ テンポ 渋谷店');
    await page.goto('/overview/agencies/6');
    await expect(page).toHaveURL(/\/overview\/agencies\/6$/);
  });
});
