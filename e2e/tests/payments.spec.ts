import type { APIRequestContext, Page } from '@playwright/test';
import { expect, gotoSettled, login, test } from './support';

/**
 * Issue 13's journey, as a new customer would go through it: the expired-trial shop chooses the
 * standard plan, registers a card through the card provider's token script, pays on the
 * provider's hosted page, is declined, gets the mail and the confirm-mail panels; then replaces
 * the card, pays again and every pay-required panel is gone. What the provider charged is
 * counted on the provider's side (the sandbox's SBPS control). This file runs after every other
 * (its own Playwright project): it turns expired@ into a paying shop for good.
 */
const USER = 'expired@tenpo.example';
const DECLINED = '4000000000000002';
const GOOD = '4111111111111111';

type Tx = { order_id: string; cust_code: string; amount: number; status: string };

async function transactions(request: APIRequestContext): Promise<Tx[]> {
  const r = await request.get('/sandbox/sbps/control/payments', {
    headers: { Accept: 'application/json' },
  });
  expect(r.status()).toBe(200);
  const body = (await r.json()) as { data: Tx[] } | Tx[];
  return Array.isArray(body) ? body : body.data;
}

async function fillCard(page: Page, number: string): Promise<void> {
  const form = page.getByRole('form', { name: /カードを(登録|更新)/ });
  await form.getByLabel('カード番号').fill(number);
  await expect(form.getByLabel('カード番号')).toHaveValue(number.replace(/(\d{4})(?=\d)/g, '$1 '));
  await form.getByLabel('カード名義').fill('TARO YAMADA');
  await form.getByLabel('有効期限（年）').click();
  await page
    .getByRole('option', { name: /^\d{4}年$/ })
    .nth(3)
    .click();
  await form.getByLabel('有効期限（月）').click();
  await page.getByRole('option', { name: '12月' }).click();
  await form.getByLabel('セキュリティコード').fill('123');
  await form.getByRole('button', { name: /カードを(登録|更新)/ }).click();
}

/** 支払う on Tenpo, then 支払う on the provider's page with the registered card. */
async function payOnHostedPage(page: Page): Promise<void> {
  await page.getByRole('button', { name: '支払う', exact: true }).click();
  await expect(page).toHaveURL(/\/sandbox\/sbps\/f01\/FepBuyInfoReceive\.do/);
  await expect(page.getByText('6,980')).toBeVisible();
  await page.getByRole('radio', { name: /登録済み/ }).check();
  await page.getByRole('button', { name: '支払う' }).click();
}

test('expired trial: a declined card, the mail and the panels, then a good card pays once', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const before = (await transactions(request)).filter((t) => t.status === 'sold').length;

  await login(page, USER);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('pay-required')).toBeVisible();
  await page.getByRole('button', { name: 'お支払い設定へ進む' }).click();
  await expect(page).toHaveURL(/\/register-payment$/);

  // The standard plan.
  await page.getByRole('combobox', { name: 'プラン' }).click();
  await page.getByRole('option', { name: /スタンダード/ }).click();
  await page.getByRole('button', { name: '更新' }).click();
  await expect(page.getByText('プランを変更しました。')).toBeVisible();
  await expect(page.getByText('現在のプラン：スタンダード')).toBeVisible();

  // A card that the provider accepts but every charge declines.
  await fillCard(page, DECLINED);
  await expect(page.getByText('カードを登録しました。')).toBeVisible();
  await expect(page.getByText('************0002')).toBeVisible();

  await payOnHostedPage(page);
  await expect(page).toHaveURL(/\/register-payment\?stt_id=18999/, { timeout: 20_000 });
  const failed = page.getByRole('dialog', { name: 'お支払いを完了できませんでした' });
  await expect(failed).toBeVisible();
  await failed.getByRole('button').last().click();
  await expect(failed).toHaveCount(0);

  // The payment-failed mail is in the sandbox mailbox.
  await expect
    .poll(
      async () => {
        const r = await request.get(`/sandbox/mail?to=${encodeURIComponent(USER)}`, {
          headers: { Accept: 'application/json' },
        });
        const mails = ((await r.json()) as { data: { subject: string }[] }).data;
        return mails.some((m) => m.subject.includes('お支払い'));
      },
      { timeout: 15_000, message: 'the payment-failed mail' },
    )
    .toBe(true);

  // The confirm-mail panels replace the guarded screens.
  for (const path of ['/dashboard', '/connect-account', '/posts']) {
    await gotoSettled(page, path);
    await expect(page.getByTestId('confirm-mail')).toBeVisible();
  }

  // A good card replaces it (on the change screen the settings link to); paying again succeeds.
  await gotoSettled(page, '/register-payment');
  await expect(page.getByText('************0002')).toBeVisible();
  await page.getByRole('link', { name: '支払い方法・カードを変更する' }).click();
  await expect(page).toHaveURL(/\/change-payment-method$/);
  await fillCard(page, GOOD);
  await expect(page.getByText('カードを登録しました。')).toBeVisible();
  await expect(page.getByText('************1111')).toBeVisible();
  // A new card clears the failure: the trial's pay-required panel is back instead.
  await gotoSettled(page, '/dashboard');
  await expect(page.getByTestId('pay-required')).toBeVisible();
  await gotoSettled(page, '/register-payment');
  await payOnHostedPage(page);
  await expect(page).toHaveURL(/\/register-payment\?stt_id=12999/, { timeout: 20_000 });
  const paid = page.getByRole('dialog', { name: 'お支払いが完了しました' });
  await expect(paid).toBeVisible();
  await paid.getByRole('button').last().click();

  for (const path of ['/dashboard', '/connect-account', '/posts', '/manual-document']) {
    await gotoSettled(page, path);
    await expect(page.getByTestId('pay-required')).toHaveCount(0);
    await expect(page.getByTestId('confirm-mail')).toHaveCount(0);
  }

  // At the provider: one sale of 6,980 yen more than before, none for the declined card.
  const sold = (await transactions(request)).filter((t) => t.status === 'sold');
  expect(sold.length - before).toBe(1);
  expect(sold.at(-1)?.amount).toBe(6980);
});

test('in trial without a card: leaving payment settings asks first (spec 1 §2)', async ({
  page,
}) => {
  await login(page, 'trial@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoSettled(page, '/register-payment');
  await expect(page.getByRole('form', { name: 'カードを登録' })).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'メインメニュー' });
  await menu.getByRole('link', { name: 'ダッシュボード' }).click();
  const ask = page.getByRole('dialog', { name: 'ページを離れますか？' });
  await expect(ask).toBeVisible();
  await expect(ask.getByText('クレジットカード情報を登録してください。')).toBeVisible();
  await ask.getByRole('button', { name: 'このページに留まる' }).click();
  await expect(page).toHaveURL(/\/register-payment$/);
  await menu.getByRole('link', { name: 'ダッシュボード' }).click();
  await page
    .getByRole('dialog', { name: 'ページを離れますか？' })
    .getByRole('button', { name: 'ページを離れる' })
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('EMV 3-D Secure: the failing card is refused, the challenge card is stored after the one-time password (ADR 0059)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const shots = process.env.TENPO_3DS_SHOTS;
  await login(page, 'trial@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoSettled(page, '/register-payment');

  // The issuer refuses this card: a Japanese message, nothing stored.
  await fillCard(page, '4000008400001629');
  await expect(page.getByText(/本人認証（3Dセキュア）に失敗しました/)).toBeVisible();
  await expect(page.getByText('************1629')).toHaveCount(0);
  if (shots) await page.screenshot({ path: `${shots}/refused-1280.png` });
  // A fresh form (the selects would toggle off on the same option).
  await gotoSettled(page, '/register-payment');

  // This one asks for the one-time password at the issuer's page, then comes back.
  await fillCard(page, '4000000000003220');
  await expect(page).toHaveURL(/\/sandbox\/sbps\/tds2\/acs\//);
  await expect(page.getByRole('heading', { name: '本人認証（3Dセキュア）' })).toBeVisible();
  if (shots) {
    await page.screenshot({ path: `${shots}/challenge-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/challenge-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await page.getByLabel('ワンタイムパスワード').fill('123456');
  await page.getByRole('button', { name: '認証する' }).click();
  await expect(page).toHaveURL(/\/register-payment$/);
  await expect(page.getByText('カードを登録しました。')).toBeVisible();
  await expect(page.getByText('************3220')).toBeVisible();
  if (shots) {
    await page.screenshot({ path: `${shots}/card-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${shots}/card-390.png`, fullPage: true });
  }
  // At the provider: the card is the customer's there too.
  const r = await request.get('/sandbox/sbps/control/customers', {
    headers: { Accept: 'application/json' },
  });
  const customers = ((await r.json()) as { data: { card: { masked: string } }[] }).data;
  expect(customers.filter((c) => c.card.masked === '************3220')).toHaveLength(1);
  expect(customers.filter((c) => c.card.masked === '************1629')).toHaveLength(0);
});
