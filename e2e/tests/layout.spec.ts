import { expect, login, test } from './support';

// Issue 7 §3.12: a long store name must not squeeze the overview's badges to 「未…」.
test('overview: long store names wrap and the status badges stay whole', async ({ page }) => {
  // No demo store has a name this long: lengthen the names in the answer, as the browser gets it.
  await page.route('**/api/agency/stores?**', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: { data: { name: string }[] } };
    for (const s of body.data.data) s.name = `${s.name}${'（とても長い店舗名のテスト）'.repeat(4)}`;
    await route.fulfill({ response: res, json: body });
  });
  await page.setViewportSize({ width: 1100, height: 800 });
  await login(page, 'agency@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);
  const table = page.getByRole('table');
  await expect(table).toContainText('とても長い店舗名のテスト');
  const labels = table.locator('.mantine-Badge-label');
  await expect(labels.first()).toBeVisible();
  const cut = await labels.evaluateAll((els) =>
    els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent),
  );
  expect(cut, 'badges whose label is cut').toEqual([]);
  await page.screenshot({ path: test.info().outputPath('overview-long-names.png') });
});

// Issue 23 item 6: at a laptop's 1280×800 every column of /posts and /connect-account is in view,
// 終了日 and 操作 and ステータス詳細 too, with no sideways scroll of the table.
test('a laptop shows every column of /posts and /connect-account', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const [path, last] of [
    ['/posts', '操作'],
    ['/connect-account', 'ステータス詳細'],
  ] as const) {
    await page.goto(path);
    const table = page.getByRole('table').first();
    await expect(table.locator('th', { hasText: last })).toBeVisible();
    const hidden = await table.evaluate((el) => {
      const box = el.parentElement?.getBoundingClientRect();
      return Array.from(el.querySelectorAll('th'))
        .filter((th) => {
          const r = th.getBoundingClientRect();
          return !box || r.right > Math.min(box.right, window.innerWidth) + 1;
        })
        .map((th) => th.textContent);
    });
    expect(hidden, `${path}: columns beyond the visible area`).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`laptop${path.replace('/', '-')}.png`) });
  }
});
