import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, gotoSettled, login, settled, test } from './support';

// Issue 23 item 12: no critical or serious axe finding on any screen, against WCAG 2.2 AA
// (ADR 0073). Each test signs in once as the demo role that reaches its screens and walks them;
// the findings of every screen are gathered and reported together.

// The screens are independent: the file's tests share the two workers.
test.describe.configure({ mode: 'parallel', timeout: 150_000 });

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

type Finding = { screen: string; rule: string; impact: string; help: string; nodes: string[] };

async function audit(page: Page, screen: string, found: Finding[]): Promise<void> {
  await settled(page);
  // One h1 per screen, which names it; waiting for it also waits for the screen to draw. (axe's
  // page-has-heading-one is a best practice, not a WCAG rule: it is checked here.)
  await expect.soft(page.getByRole('heading', { level: 1 }), `${screen}: one h1`).toHaveCount(1);
  // Only the violations are collected: the passes of a large screen cost seconds to gather.
  const result = await new AxeBuilder({ page })
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ['violations'] })
    .analyze();
  for (const v of result.violations) {
    if (v.impact !== 'critical' && v.impact !== 'serious') continue;
    found.push({
      screen,
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 4).map((n) => {
        const why = n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? '';
        return `${n.target.join(' ')} — ${why}`;
      }),
    });
  }
}

async function visit(page: Page, path: string, found: Finding[], screen = path): Promise<void> {
  await gotoSettled(page, path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
  await audit(page, screen, found);
}

function report(found: Finding[]): string {
  return found
    .map(
      (f) =>
        `${f.screen}: [${f.impact}] ${f.rule} — ${f.help}${f.nodes.map((n) => `\n    ${n}`).join('')}`,
    )
    .join('\n');
}

test('public screens have no serious accessibility finding', async ({ page }) => {
  const found: Finding[] = [];
  for (const path of [
    '/login',
    '/forgot-password',
    '/register-information',
    '/facebook-terms-and-privacy',
    '/no/such/page',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading').first()).toBeVisible();
    await audit(page, path, found);
  }
  expect(found, report(found)).toEqual([]);
});

const shopScreens = [
  ['/dashboard-chart', '/report', '/posts', '/create-post', '/reviews'],
  ['/connect-account', '/google-my-business', '/connect-location', '/basic-information', '/media'],
  ['/products', '/knowledge-tag', '/add-knowledge-tag', '/add-knowledge-tag/schema-markup'],
  [
    '/audit-log',
    '/manual-document',
    '/setting-account',
    '/change-password',
    '/register-payment',
    '/change-payment-method',
  ],
];

for (const [i, paths] of shopScreens.entries()) {
  test(`a shop’s screens (${i + 1}/${shopScreens.length}) have no serious accessibility finding`, async ({
    page,
  }) => {
    const found: Finding[] = [];
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    if (i === 0) await audit(page, '/dashboard', found);
    for (const path of paths) await visit(page, path, found);
    expect(found, report(found)).toEqual([]);
  });
}

test('an agency’s screens have no serious accessibility finding', async ({ page }) => {
  const found: Finding[] = [];
  await login(page, 'agency@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);
  await audit(page, '/overview (agency)', found);
  await page.getByRole('checkbox', { name: 'カフェ・ミナト 新宿店' }).check();
  await page.getByRole('checkbox', { name: 'カフェ・ミナト 渋谷店' }).check();
  await page.getByRole('button', { name: 'レポートを見る' }).click();
  await expect(page).toHaveURL(/\/report-multiple$/);
  await audit(page, '/report-multiple', found);
  expect(found, report(found)).toEqual([]);
});

test('a manager’s and a pay-required screen have no serious accessibility finding', async ({
  page,
}) => {
  const found: Finding[] = [];
  await login(page, 'manager@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);
  await audit(page, '/overview (manager)', found);
  await page.getByRole('tab', { name: '代理店' }).click();
  await audit(page, '/overview (manager, 代理店)', found);
  await page.getByRole('button', { name: '株式会社デモエージェンシー 店舗一覧' }).click();
  await expect(page).toHaveURL(/\/overview\/agencies\/\d+$/);
  await audit(page, '/overview/agencies/:id', found);

  await page.evaluate(() => localStorage.clear());
  await login(page, 'expired@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await audit(page, '/dashboard (pay required)', found);
  expect(found, report(found)).toEqual([]);
});
