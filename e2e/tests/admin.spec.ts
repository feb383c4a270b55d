import type { APIRequestContext, Page } from '@playwright/test';
import { baseURL } from '../playwright.config';
import { asManager, expect, gotoSettled, login, test } from './support';

// Issue 12: the manager creates an agency with the white-label prefix `acme`, a title and a
// favicon; a page opened at acme.localhost (Chromium resolves *.localhost to loopback) shows
// that title and that favicon (spec 1 §1).

const port = new URL(baseURL).port;
const acmeOrigin = `http://acme.localhost:${port}`;
const TITLE = 'ACME 店舗ナビ';
const OWNER = 'owner@acme.example';
/** A 16×16 red PNG. */
const FAVICON = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAGUlEQVR4nGO4o2HznxLMMGrAqAGjBgwXAwACAD8fu636wwAAAABJRU5ErkJggg==',
  'base64',
);

/** Clears what an earlier run on the same data folder left: the acme agency. */
async function removeAcme(page: Page, request: APIRequestContext): Promise<void> {
  await asManager(page, request, async (auth) => {
    const list = await request.get('/api/admin/agencies?search=acme&per_page=50', {
      headers: auth,
    });
    expect(list.status()).toBe(200);
    const rows = (
      (await list.json()) as {
        data: { data: { id: number; prefix: string | null; email: string }[] };
      }
    ).data.data;
    for (const a of rows.filter((x) => x.prefix === 'acme' || x.email === OWNER)) {
      const d = await request.delete(`/api/admin/agencies/${a.id}`, { headers: auth });
      expect(d.status()).toBe(200);
    }
  });
}

test('the manager creates agency acme; acme.localhost shows its title and favicon', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  await removeAcme(page, request);
  await login(page, 'manager@tenpo.example');
  await expect(page).not.toHaveURL(/\/login$/);
  await gotoSettled(page, '/overview');
  await expect(page.getByRole('heading', { name: '運営管理' })).toBeVisible();
  await expect(page.getByRole('table', { name: '顧客（直接契約）' })).toContainText(
    'shop@tenpo.example',
  );
  await page.screenshot({
    path: test.info().outputPath('manager-overview-customers.png'),
    fullPage: true,
  });

  await page.getByRole('tab', { name: '代理店' }).click();
  const agencies = page.getByRole('table', { name: '代理店' });
  await expect(agencies).toContainText('デモエージェンシー 店舗管理');

  await page.getByRole('button', { name: '代理店を追加' }).click();
  const form = page.getByRole('form', { name: '代理店を追加' });
  await form.getByLabel('会社名').fill('ACME');
  await form.getByLabel('担当者名').fill('山田 太郎');
  await form.getByLabel('メールアドレス').fill(OWNER);
  await form.getByLabel('パスワード', { exact: false }).first().fill('acme-pass-123');
  await form.getByLabel('サブドメイン（プレフィックス）').fill('acme');
  await form.getByLabel('アプリ名（タイトル）').fill(TITLE);
  // Mantine's FileInput keeps a hidden <input type=file> beside its button.
  const fileInputs = form.locator('input[type="file"]');
  await fileInputs
    .nth(0)
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: FAVICON });
  await fileInputs.nth(1).setInputFiles({
    name: 'favicon.png',
    mimeType: 'image/png',
    buffer: FAVICON,
  });
  await form.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('代理店を作成しました。')).toBeVisible();
  await expect(form).toBeHidden();
  const row = agencies.getByRole('row').filter({ hasText: OWNER });
  await expect(row).toContainText(TITLE);
  await expect(row).toContainText('acme');
  await page.screenshot({
    path: test.info().outputPath('manager-overview-agencies.png'),
    fullPage: true,
  });

  // The manager's history has the new agency (newest first; an earlier run's rows stay below).
  await page.getByRole('button', { name: 'アカウントメニュー' }).click();
  await page.getByRole('menuitem', { name: '変更履歴' }).click();
  await expect(page).toHaveURL(/\/audit-log$/);
  const history = page.getByRole('table', { name: '変更履歴' });
  const created = history.getByRole('row').filter({ hasText: '代理店「ACME」を作成' }).first();
  await expect(created).toContainText('manager@tenpo.example');

  // The white-label host, in a context of its own (no session there).
  const context = await browser.newContext();
  const acme = await context.newPage();
  const errors: string[] = [];
  acme.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await acme.goto(`${acmeOrigin}/login`);
  await expect(acme).toHaveTitle(`ログイン | ${TITLE}`);
  const icon = acme.locator('link[rel="icon"]');
  await expect(icon).toHaveAttribute('href', /\/uploads\/logos\/[\w-]+\.png$/);
  const href = (await icon.getAttribute('href')) ?? '';
  // The favicon loads on that host (same origin, so the page's CSP lets it in).
  const size = await acme.evaluate(
    (src) =>
      new Promise<number>((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img.naturalWidth);
        img.onerror = () => resolve(0);
        img.src = src;
      }),
    href,
  );
  expect(size).toBe(16);
  // Fetched from the page itself: Node's resolver does not know *.localhost, Chromium does.
  const served = await acme.evaluate(async (src) => {
    const r = await fetch(src);
    return [r.status, r.headers.get('content-type')];
  }, href);
  expect(served).toEqual([200, 'image/png']);
  expect(errors).toEqual([]);
  await acme.screenshot({ path: test.info().outputPath('acme-login.png') });
  await context.close();
});
