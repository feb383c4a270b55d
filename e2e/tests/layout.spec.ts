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
