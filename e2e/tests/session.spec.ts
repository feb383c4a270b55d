import type { Page } from '@playwright/test';
import { emailBox, expect, login, passwordBox, test } from './support';

const mainMenu = 'メインメニュー';
const warningTitle = 'ログイン状態が変わりました';
/** Where a journey's screenshot goes: its own output folder, kept out of the repository. */
const shot = (name: string) => test.info().outputPath(`${name}.png`);

/** Paths of the main frame's navigations (history moves included), in order. */
function watchNavigations(page: Page): string[] {
  const seen: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) seen.push(new URL(f.url()).pathname);
  });
  return seen;
}

/** The console-error check of support.ts, for a second tab the fixture does not watch. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) {
      errors.push(`console.error: ${m.text()}`);
    }
  });
  return errors;
}

/**
 * Counts the session rotations (GET /refresh-token) the page has sent and not yet seen answered,
 * so that a journey can let them land before it removes the token. A rotation that answers after
 * the removal is refused and sends the tab to /login on its own, before the move under test: a
 * fixed wait let that happen on a loaded machine (the Back journey then saw /login twice).
 */
function watchRotations(page: Page): () => number {
  let open = 0;
  const isRotation = (url: string) => new URL(url).pathname.endsWith('/refresh-token');
  page.on('request', (r) => {
    if (isRotation(r.url())) open += 1;
  });
  const done = (r: { url(): string }) => {
    if (isRotation(r.url())) open -= 1;
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return () => open;
}

/** Waits until no rotation is on its way, and gives the page a moment to store what it got. */
async function rotationsSettled(page: Page, open: () => number): Promise<void> {
  // The screen's own calls too: one sent after the token is removed answers 401, and the app
  // then goes to /login by itself (right, but not the step the test drives next).
  await page.waitForLoadState('networkidle');
  await expect.poll(open, { timeout: 15_000 }).toBe(0);
  await page.waitForTimeout(250);
  await expect.poll(open).toBe(0);
}

const menuLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: mainMenu }).getByRole('link', { name });

test.describe('no token in storage', () => {
  test('a side-bar link goes to /login once, with no loop', async ({ page }) => {
    const rotations = watchRotations(page);
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    // Let the route change's rotation answer first (as for a user, who removes it by hand later).
    await rotationsSettled(page, rotations);
    const seen = watchNavigations(page);
    await page.evaluate(() => localStorage.removeItem('token'));
    // A call of the screen's that answers 401 may take the app to /login before the click: also
    // the rule (no token → /login); what matters is that it goes there once, with no loop.
    if (!page.url().endsWith('/login'))
      await menuLink(page, 'レポート')
        .click({ timeout: 5_000 })
        .catch(() => undefined);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'ログイン' })).toBeVisible();
    // Let a loop show itself, if there is one (the issue counted ~500 moves in 3 s).
    await page.waitForTimeout(3000);
    await expect(page).toHaveURL(/\/login$/);
    expect(seen.filter((p) => p === '/login')).toHaveLength(1);
    expect(seen.length).toBeLessThanOrEqual(3);
    await page.screenshot({ path: shot('no-token'), fullPage: true });
  });

  test('Back goes to /login once, with no loop', async ({ page }) => {
    const rotations = watchRotations(page);
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    await menuLink(page, 'レポート').click();
    await expect(page).toHaveURL(/\/report$/);
    await rotationsSettled(page, rotations);
    const seen = watchNavigations(page);
    await page.evaluate(() => localStorage.removeItem('token'));
    // The app may already be on its way to /login by itself: the route change's rotation can
    // still be on its way (on a loaded machine the tab sends it only once /report is drawn) and
    // is refused once the token is gone. Back then meets a layout that is already redirecting;
    // it used to keep its one redirect and leave a blank /dashboard (admin-layout.test: "Back
    // while the app is on its way to /login"). Either order must end on /login.
    const backed = !page.url().endsWith('/login');
    if (backed) await page.goBack();
    await expect(page).toHaveURL(/\/login$/);
    await page.waitForTimeout(3000);
    await expect(page).toHaveURL(/\/login$/);
    // One arrival per move, no loop (the issue counted ~500 moves in 3 s): exactly one when the
    // app got there before Back; after Back, the app's own move and Back's at most.
    const logins = seen.filter((p) => p === '/login').length;
    expect(logins).toBeGreaterThanOrEqual(1);
    expect(logins).toBeLessThanOrEqual(backed ? 2 : 1);
    expect(seen.length).toBeLessThanOrEqual(3);
  });
});

test.describe('two tabs of one browser', () => {
  test('one user: both tabs keep working through route changes, with no warning', async ({
    page,
  }) => {
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    const second = await page.context().newPage();
    const secondErrors = watchErrors(second);
    await second.goto('/dashboard');
    await expect(second).toHaveURL(/\/dashboard$/);
    await expect(menuLink(second, 'ダッシュボード')).toBeVisible();

    // Each route change refreshes the session; the tabs take turns and must not collide.
    const route = ['レポート', 'お支払い設定', 'ダッシュボード', 'レポート', 'ダッシュボード'];
    const paths = ['/report', '/register-payment', '/dashboard', '/report', '/dashboard'];
    for (let i = 0; i < route.length; i += 1) {
      for (const tab of [page, second]) {
        await menuLink(tab, route[i] ?? '').click();
        await expect(tab).toHaveURL(new RegExp(`${paths[i] ?? ''}$`));
      }
    }
    // Both at once, too.
    await Promise.all([
      menuLink(page, 'レポート').click(),
      menuLink(second, 'お支払い設定').click(),
    ]);
    await expect(page).toHaveURL(/\/report$/);
    await expect(second).toHaveURL(/\/register-payment$/);
    await page.waitForTimeout(1000);
    for (const tab of [page, second]) {
      await expect(tab.getByRole('dialog', { name: warningTitle })).toHaveCount(0);
      await expect(menuLink(tab, 'ダッシュボード')).toBeVisible();
    }
    // Still signed in: a reload of either tab stays in the app.
    await page.reload();
    await expect(page).toHaveURL(/\/report$/);
    await expect(menuLink(page, 'ダッシュボード')).toBeVisible();
    await menuLink(second, 'ダッシュボード').click();
    await expect(second).toHaveURL(/\/dashboard$/);
    await expect(second.getByRole('dialog', { name: warningTitle })).toHaveCount(0);
    await page.screenshot({ path: shot('two-tabs-first'), fullPage: true });
    await second.screenshot({ path: shot('two-tabs-second'), fullPage: true });
    expect(secondErrors, 'errors in the second tab').toEqual([]);
  });

  test('a tab opening the login page while the browser is signed in goes home, signed in; no tab is warned or logged out (issue 23 item 4)', async ({
    page,
  }) => {
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    const second = await page.context().newPage();
    const secondErrors = watchErrors(second);
    await second.goto('/login');
    // The browser's own account, not another one: home, as spec 1 §2 says for public routes.
    await expect(second).toHaveURL(/\/dashboard$/);
    await expect(menuLink(second, 'ダッシュボード')).toBeVisible();
    await expect(second.getByRole('dialog', { name: warningTitle })).toHaveCount(0);
    await second.screenshot({ path: shot('login-second-tab'), fullPage: true });
    // The first tab keeps working.
    await menuLink(page, 'レポート').click();
    await expect(page).toHaveURL(/\/report$/);
    await page.waitForTimeout(1000);
    await expect(page.getByRole('dialog', { name: warningTitle })).toHaveCount(0);
    await expect(menuLink(page, 'ダッシュボード')).toBeVisible();
    expect(secondErrors, 'errors in the second tab').toEqual([]);
  });

  test('another account signed in from a tab already on the login page: the other tab is warned', async ({
    page,
  }) => {
    const second = await page.context().newPage();
    const secondErrors = watchErrors(second);
    // The second tab is on /login before anybody signs in, so nothing warns it there.
    await second.goto('/login');
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    await emailBox(second).fill('trial@tenpo.example');
    await passwordBox(second).fill('tenpo-demo-1');
    await second.getByRole('button', { name: 'ログイン' }).click();
    await expect(second).toHaveURL(/\/dashboard$/);
    // The first tab still shows the shop, but storage now holds the trial user's token.
    const dialog = page.getByRole('dialog', { name: warningTitle });
    await expect(dialog).toContainText('すでに別のアカウントでログインしている');
    await page.screenshot({ path: shot('other-account'), fullPage: true });
    await expect(second.getByRole('dialog', { name: warningTitle })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(secondErrors, 'errors in the second tab').toEqual([]);
  });
});
