import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { baseURL } from '../playwright.config';
import { emailBox, expect, passwordBox, DEMO_PASSWORD, test } from './support';

// The demo agency's white-label host: its prefix `demo` is the first label (spec 1 §1), under
// the loopback name of the server the journeys run (Chromium resolves *.localhost to loopback).
const port = new URL(baseURL).port;
const agencyOrigin = `http://demo.localhost:${port}`;
const AGENCY_TITLE = 'デモエージェンシー 店舗管理';
const mainMenu = 'メインメニュー';

/** Every <img> on the page has loaded (a blocked or missing image has no natural width). */
async function expectEveryImageLoaded(page: Page): Promise<void> {
  const images = page.locator('img');
  await expect(images.first()).toBeVisible();
  await expect
    .poll(() =>
      images.evaluateAll((els) =>
        (els as HTMLImageElement[])
          .filter((img) => !img.complete || img.naturalWidth === 0)
          .map((img) => img.src),
      ),
    )
    .toEqual([]);
}

/** The agency's title, not Tenpo, in the tab and on the page. */
async function expectAgencyBrand(page: Page, screen: string): Promise<void> {
  await expect(page).toHaveTitle(`${screen} | ${AGENCY_TITLE}`);
  await expect(page.getByRole('banner')).toContainText(AGENCY_TITLE);
  await expect(page.locator('body')).not.toContainText('Tenpo');
}

// store04 (カフェ・ミナト 品川店), one of the demo agency's stores, is not connected to Google: its
// user signs in on the agency's host and connects its listing through Google's consent page.
test('a store at the agency’s host connects Google and comes back to that host, signed in', async ({
  page,
}) => {
  await page.goto(`${agencyOrigin}/login`);
  await expect(page).toHaveTitle(`ログイン | ${AGENCY_TITLE}`);
  await emailBox(page).fill('store04@tenpo.example');
  await passwordBox(page).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'ログイン' }).click();

  await expect(page).toHaveURL(`${agencyOrigin}/google-my-business`);
  await expect(
    page.getByText(`${AGENCY_TITLE} をご利用いただくには、店舗の Google ビジネスプロフィール`),
  ).toBeVisible();
  await expectAgencyBrand(page, 'Googleビジネスプロフィール連携');
  await expectEveryImageLoaded(page);

  await page.getByRole('button', { name: '連携する' }).click();
  // Google's consent page (the sandbox's), on the host its redirect URI is registered for.
  await expect(page).toHaveURL(/\/sandbox\/google\/accounts\/o\/oauth2\/v2\/auth/);
  await page.locator('input[name="account"][value="gbp@minato-foods.example"]').check();
  await page.getByRole('button', { name: '許可 / Allow' }).click();

  // Back on the agency's host, where the session lives: still signed in.
  await expect(page).toHaveURL(`${agencyOrigin}/connect-location`);
  await expect(page.getByRole('heading', { name: 'ビジネス拠点の選択' })).toBeVisible();
  await expect(page.getByText(`${AGENCY_TITLE} で管理する`)).toBeVisible();
  await expectAgencyBrand(page, 'ビジネス拠点の選択');
  await page.getByRole('radio', { name: 'カフェ・ミナト 品川店' }).check();
  await page.getByRole('button', { name: '確認' }).click();
  await expect(page).toHaveURL(`${agencyOrigin}/dashboard`);

  await page
    .getByRole('navigation', { name: mainMenu })
    .getByRole('link', { name: 'アカウント連携' })
    .click();
  await expect(page).toHaveURL(`${agencyOrigin}/connect-account`);
  const google = page.getByTestId('publisher-google_my_business');
  await expect(google).toContainText('カフェ・ミナト 品川店');
  await expect(google).toContainText('連携済み');
  await expectAgencyBrand(page, 'アカウント連携');
  // The four channel logos and the side bar's logo all load on this host.
  await expect(page.locator('img[src^="/images/publisher/"]')).toHaveCount(4);
  await expectEveryImageLoaded(page);
  await page.screenshot({ path: test.info().outputPath('white-label-connect-account.png') });
});

// Media are shown by a path on the page's own host (issue 23 item 7): a photo store05 uploads on
// the agency's host loads there (the CSP allows the page's origin only).
test('a photo uploaded on the agency’s host is shown from that host', async ({ page }) => {
  await page.goto(`${agencyOrigin}/login`);
  await emailBox(page).fill('store05@tenpo.example');
  await passwordBox(page).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'ログイン' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto(`${agencyOrigin}/media`);
  await expect(page.getByRole('heading', { name: '写真・動画' })).toBeVisible();
  const gallery = page.getByTestId('photo');
  await expect(page.getByText('写真・動画はまだありません。').or(gallery.first())).toBeVisible();
  const before = await gallery.count();
  const photo = await sharp({
    create: { width: 600, height: 400, channels: 3, background: '#3070c0' },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  await page.getByRole('button', { name: 'アップロード', exact: true }).click();
  const modal = page.getByRole('dialog', { name: '写真・動画をアップロード' });
  await modal
    .locator('input[type="file"]')
    .setInputFiles([{ name: 'store05.jpg', mimeType: 'image/jpeg', buffer: photo }]);
  await modal.getByRole('button', { name: 'アップロードする' }).click();
  await expect(page.getByText('写真をアップロードしました。')).toBeVisible();
  await expect(gallery).toHaveCount(before + 1);
  await expectEveryImageLoaded(page);
  const ours = await page
    .locator('img')
    .evaluateAll((els) =>
      (els as HTMLImageElement[]).map((i) => i.src).filter((src) => src.includes('/uploads/')),
    );
  expect(ours.length).toBeGreaterThan(0);
  for (const src of ours) expect(new URL(src).origin).toBe(agencyOrigin);
  await page.screenshot({ path: test.info().outputPath('white-label-media.png') });
});
