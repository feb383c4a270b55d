import type { Locator, Page } from '@playwright/test';
import { clickMapAt, mapPosition, mapReady, pixelsApart, refuseOutsideHosts } from './map';
import { GOOGLE, googleListing } from './providers';
import { expect, gotoSettled, login, test, chooseOption } from './support';

// Issue 11's journey on the built product: a shop (the trial store) edits its hours on /basic-information and
// the sandbox's Google location then holds exactly those periods (read with Google's own API).

type Period = {
  openDay: string;
  closeDay: string;
  openTime: { hours?: number; minutes?: number };
  closeTime: { hours?: number; minutes?: number };
};
const hhmm = (t: { hours?: number; minutes?: number }) =>
  `${String(t.hours ?? 0).padStart(2, '0')}:${String(t.minutes ?? 0).padStart(2, '0')}`;

/**
 * Presses the form's 保存 and reads the save's own answer: 200 with the spec's message. Not its
 * notification, which lasts 2000 ms (spec 1) and which a loaded CI machine showed and hid
 * between two looks.
 */
async function saveAndRead(page: Page, form: Locator, path: string): Promise<void> {
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(path) && r.request().method() === 'PUT',
  );
  await form.getByRole('button', { name: '保存' }).click();
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { message?: string }).message).toBe('項目が正常に更新される');
}

// The trial store is this file's (the knowledge tag's journey reads the shop's hours meanwhile).
test('the shop changes its hours (a second interval on Monday, Sunday closed) and Google holds exactly them', async ({
  page,
  request,
}) => {
  // About 20 steps, a wait for Google's copy and a reload that reads it: 25 s alone, over 60 s
  // beside the other journeys on a 2-core CI machine.
  test.slow();
  await login(page, 'trial@tenpo.example');
  await expect(page).toHaveURL(/\/(overview|dashboard)/);
  await gotoSettled(page, '/basic-information');
  const details = page.getByRole('form', { name: 'ビジネス情報' });
  // A copy older than 5 minutes is read from Google first (ADR 0041), as in the journey below.
  await expect(details).toBeVisible({ timeout: 30_000 });

  const specify = details.getByRole('checkbox', { name: '営業時間を指定する' });
  if (!(await specify.isChecked())) await specify.check();
  await chooseOption(page, '月曜日の営業区分', '営業');
  // Monday's extra intervals from an earlier run go first: one interval, then a second.
  while ((await details.getByRole('button', { name: /^月曜日の時間帯を削除/ }).count()) > 0)
    await details
      .getByRole('button', { name: /^月曜日の時間帯を削除/ })
      .first()
      .click();
  await chooseOption(page, '月曜日の開店', '09:00');
  await chooseOption(page, '月曜日の閉店', '12:00');
  await details.getByRole('button', { name: '月曜日に時間帯を追加' }).click();
  const second = details.getByRole('textbox', { name: /^月曜日の開店（\d+）$/ });
  const secondClose = details.getByRole('textbox', { name: /^月曜日の閉店（\d+）$/ });
  await second.click();
  await page.getByRole('option', { name: '13:00', exact: true }).click();
  await secondClose.click();
  await page.getByRole('option', { name: '18:30', exact: true }).click();
  await chooseOption(page, '日曜日の営業区分', '定休日');
  await page.screenshot({ path: test.info().outputPath('hours-editor.png'), fullPage: true });

  await saveAndRead(page, details, '/api/entity/business-details');
  // The screen says when Google has it.
  await expect(page.getByTestId('google-sync')).toContainText('Google に反映済みです', {
    timeout: 30_000,
  });
  await page.screenshot({ path: test.info().outputPath('saved.png'), fullPage: true });

  const g = await googleListing(request, GOOGLE.trial, 'regularHours');
  const periods = ((g.regularHours as { periods?: Period[] } | undefined)?.periods ?? []).map(
    (p) => `${p.openDay} ${hhmm(p.openTime)}-${p.closeDay} ${hhmm(p.closeTime)}`,
  );
  expect(periods.filter((p) => p.startsWith('MONDAY'))).toEqual([
    'MONDAY 09:00-MONDAY 12:00',
    'MONDAY 13:00-MONDAY 18:30',
  ]);
  expect(periods.some((p) => p.startsWith('SUNDAY'))).toBe(false);

  // The saved hours read back as the editor shows them after a reload.
  await gotoSettled(page, '/basic-information');
  await expect(
    page
      .getByRole('form', { name: 'ビジネス情報' })
      .getByRole('textbox', { name: /^月曜日の開店（\d+）$/ }),
    // The screen reads Google's copy first when its own is older than 5 minutes (ADR 0041).
  ).toHaveValue('13:00', { timeout: 30_000 });
});

test('the postal-code lookup fills the address, the offline map moves its marker on a click, and nothing leaves this machine', async ({
  page,
}) => {
  const outside = await refuseOutsideHosts(page);
  await login(page, 'trial@tenpo.example');
  await expect(page).toHaveURL(/\/(overview|dashboard)/);
  await gotoSettled(page, '/basic-information');
  const core = page.getByRole('form', { name: '基本情報' });
  // A copy older than 5 minutes is read from Google first (ADR 0041): on a loaded CI machine
  // after the other journeys, that read takes longer than the default wait.
  await expect(core).toBeVisible({ timeout: 30_000 });
  const postal = core.getByRole('textbox', { name: /郵便番号/ });
  await postal.fill('150-0002');
  await core.getByRole('button', { name: '住所を検索' }).click();
  await expect(core.getByRole('textbox', { name: '市区町村' })).toHaveValue('渋谷区');
  await expect(core.getByRole('textbox', { name: /^番地/ })).toHaveValue(/^渋谷/);
  await mapReady(page);
  const before = await mapPosition(page);
  expect(before).not.toBeNull();
  const picked = await clickMapAt(page, 60, -40);
  await expect
    .poll(async () => {
      const now = await mapPosition(page);
      return now ? pixelsApart(now, picked) : Infinity;
    })
    .toBeLessThan(1.5);
  await page.screenshot({ path: test.info().outputPath('core-map.png'), fullPage: true });
  await saveAndRead(page, core, '/api/entity/basic-information');
  // The marker is Tenpo's: kept with the store, never sent to Google (spec 2 §4).
  await gotoSettled(page, '/basic-information');
  await mapReady(page);
  await expect
    .poll(async () => pixelsApart((await mapPosition(page)) ?? before!, picked))
    .toBeLessThan(1.5);
  expect(outside).toEqual([]);
});
