import type { Page } from '@playwright/test';
import { expect, gotoSettled, login, test } from './support';

// Issue 23 item 2: at a phone's 390×844 every control of every screen is reachable without
// sideways scrolling, of the page or of a table inside it (a swipe with no cue is no way in).

const PHONE = { width: 390, height: 844 };

/**
 * The controls of the page (buttons, links, inputs, selects, checkboxes) that lie beyond the
 * screen's edge or beyond the visible part of a box that scrolls sideways, and the page's own
 * width: both must be within the phone's.
 */
async function outOfReach(
  page: Page,
  scope = 'main',
): Promise<{ pageWidth: number; controls: string[] }> {
  return page.evaluate((scope) => {
    const kinds = [
      'button',
      'a[href]',
      'input:not([type=hidden])',
      'select',
      'textarea',
      '[role=checkbox]',
      '[role=switch]',
      '[role=tab]',
    ];
    const controls = Array.from(
      document.querySelectorAll<HTMLElement>(kinds.map((k) => `${scope} ${k}`).join(', ')),
    );
    const out: string[] = [];
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue; // not shown (a closed menu, a hidden input)
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      let right = window.innerWidth;
      let left = 0;
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX !== 'visible' && p.scrollWidth > p.clientWidth + 1) {
          const b = p.getBoundingClientRect();
          right = Math.min(right, b.right);
          left = Math.max(left, b.left);
        }
      }
      if (r.right > right + 1 || r.left < left - 1) {
        const name =
          el.getAttribute('aria-label') ??
          el.textContent?.trim().slice(0, 30) ??
          el.getAttribute('name') ??
          el.tagName;
        out.push(
          `${el.tagName.toLowerCase()} 「${name}」 at ${Math.round(r.left)}–${Math.round(r.right)}`,
        );
      }
    }
    return { pageWidth: document.documentElement.scrollWidth, controls: out };
  }, scope);
}

async function checkScreens(page: Page, who: string, paths: string[]): Promise<void> {
  await page.setViewportSize(PHONE);
  await login(page, who);
  await expect(page).toHaveURL(/\/(overview|dashboard)$/);
  const found: Record<string, { pageWidth: number; controls: string[] }> = {};
  for (const path of paths) {
    await gotoSettled(page, path);
    await expect(page.locator('main')).toBeVisible();
    await page.waitForLoadState('networkidle');
    const seen = await outOfReach(page);
    if (seen.pageWidth > PHONE.width || seen.controls.length > 0) found[path] = seen;
    await page.screenshot({
      path: test.info().outputPath(`390${path.replaceAll('/', '-')}.png`),
      fullPage: true,
    });
  }
  expect(found, `${who}: screens with controls out of reach at 390 px`).toEqual({});
}

test('a shop: every store screen at 390 px, every control in reach', async ({ page }) => {
  test.slow();
  await checkScreens(page, 'shop@tenpo.example', [
    '/dashboard',
    '/report',
    '/basic-information',
    '/knowledge-tag',
    '/connect-account',
    '/media',
    '/posts',
    '/create-post',
    '/reviews',
    '/products',
    '/change-payment-method',
    '/audit-log',
    '/setting-account',
  ]);
});

test('an agency: /overview and /audit-log at 390 px, then a post from the phone, and /posts with it in reach', async ({
  page,
}) => {
  test.slow();
  await checkScreens(page, 'agency@tenpo.example', ['/overview', '/audit-log']);
  // A post written on the phone, so that /posts has a row to show as a card.
  await gotoSettled(page, '/overview');
  await page.getByRole('button', { name: 'カフェ・ミナト 渋谷店 ダッシュボード' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoSettled(page, '/create-post');
  const text = `スマホから ${Date.now()}`;
  await page.getByRole('textbox', { name: '投稿内容' }).fill(text);
  await page.getByRole('button', { name: '投稿する' }).click();
  await expect(page.getByText('投稿を受け付けました。')).toBeVisible();
  await gotoSettled(page, '/posts');
  const row = page.getByRole('row', { name: new RegExp(text) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: /コピー/ })).toBeInViewport();
  const seen = await outOfReach(page);
  expect(seen.controls, '/posts with a post: controls out of reach').toEqual([]);
  expect(seen.pageWidth).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({
    path: test.info().outputPath('390-posts-with-a-post.png'),
    fullPage: true,
  });
});

test('a manager: /overview at 390 px, every control in reach', async ({ page }) => {
  await checkScreens(page, 'manager@tenpo.example', ['/overview']);
});

test('the public screens at 390 px, every control in reach', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const found: Record<string, { pageWidth: number; controls: string[] }> = {};
  for (const path of [
    '/login',
    '/forgot-password',
    '/register-information',
    '/facebook-terms-and-privacy',
  ]) {
    await gotoSettled(page, path);
    await expect(page.getByRole('heading').first()).toBeVisible();
    const seen = await outOfReach(page, 'body');
    if (seen.pageWidth > PHONE.width || seen.controls.length > 0) found[path] = seen;
    await page.screenshot({
      path: test.info().outputPath(`390${path.replaceAll('/', '-')}.png`),
      fullPage: true,
    });
  }
  expect(found, 'public screens with controls out of reach at 390 px').toEqual({});
});
