import type { Page } from '@playwright/test';
import { expect, login, settled, test } from './support';

// Public pages opened signed in, the privacy page, and "/" (issue 23 items 4 and 8, ADR 0070).

const warningTitle = 'ログイン状態が変わりました';
const mainMenu = 'メインメニュー';

/** Screenshots looked at by hand: /work/shots when it exists, else the journey's output folder. */
async function shots(page: Page, name: string): Promise<void> {
  for (const [w, h] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    // The new width's layout is drawn once two frames have passed.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    const dir = process.env.SHOTS_DIR;
    const file = dir
      ? `${dir}/routes-${name}-${w}.png`
      : test.info().outputPath(`${name}-${w}.png`);
    await page.screenshot({ path: file, fullPage: true });
  }
}

test('a signed-in shop opening /login lands home, still signed in, with no warning', async ({
  page,
}) => {
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await settled(page);
  // A full page load of /login, as a typed address or a bookmark does.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('navigation', { name: mainMenu })).toBeVisible();
  await expect(page.getByRole('dialog', { name: warningTitle })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
  // The other public pages too, and the session is still there after them.
  for (const path of ['/forgot-password', '/register-information']) {
    await settled(page);
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('dialog', { name: warningTitle })).toHaveCount(0);
  }
  await settled(page);
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('navigation', { name: mainMenu })).toBeVisible();
});

test('the privacy policy opened signed in is shown and keeps the session', async ({ page }) => {
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await settled(page);
  await page.goto('/facebook-terms-and-privacy');
  await expect(page.getByRole('heading', { name: 'プライバシーポリシー', level: 1 })).toBeVisible();
  await page.waitForTimeout(1000);
  await expect(page).toHaveURL(/\/facebook-terms-and-privacy$/);
  await expect(page.getByRole('dialog', { name: warningTitle })).toHaveCount(0);
  await shots(page, 'privacy-signed-in');
  // Still signed in: the app opens without a login.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('navigation', { name: mainMenu })).toBeVisible();
});

test('an agency with two stores ticked: report, a 404, メインページへ → /overview', async ({
  page,
}) => {
  await login(page, 'agency@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole('checkbox', { name: 'カフェ・ミナト 新宿店' }).check();
  await page.getByRole('checkbox', { name: 'カフェ・ミナト 渋谷店' }).check();
  await page.getByRole('button', { name: 'レポートを見る' }).click();
  await expect(page).toHaveURL(/\/report-multiple$/);
  await settled(page);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'メインページへ' }).click();
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole('button', { name: 'レポートを見る' })).toBeVisible();
  await expect(page.getByTestId('choose-one-store')).toHaveCount(0);
  await shots(page, 'home-agency-two-stores');
});

test('an ended trial: the plan help and the account menu link the help site; the manual opens', async ({
  page,
}) => {
  await login(page, 'expired@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('pay-required')).toBeVisible();
  await settled(page);
  await page.goto('/register-payment');
  const plan = page.getByRole('region', { name: 'プラン' });
  const help = plan.getByRole('link', { name: 'プランについて（マニュアル）' });
  // HELP_URL unset in the journeys: its default.
  await expect(help).toHaveAttribute('href', 'https://help.tenpo.example/');
  await expect(help).toHaveAttribute('target', '_blank');
  await shots(page, 'register-payment-ended-trial');
  await page.getByRole('button', { name: 'アカウントメニュー' }).click();
  await expect(page.getByRole('menuitem', { name: 'マニュアル（ヘルプサイト）' })).toHaveAttribute(
    'href',
    'https://help.tenpo.example/',
  );
  await page.getByRole('menuitem', { name: 'マニュアル（PDF）' }).click();
  await expect(page).toHaveURL(/\/manual-document$/);
  await expect(page.locator('iframe[title="マニュアル"]')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('pay-required')).toHaveCount(0);
  await shots(page, 'manual-ended-trial');
});
