import type { Page } from '@playwright/test';
import { GOOGLE, googleReplyCalls, googleReview, writeGoogleReview } from './providers';
import { expect, gotoSettled, login, settled, test } from './support';

const CLINIC = '整体院 ほぐし庵 横浜';
const OTHER = 'カフェ・ミナト 新宿店';

/** The agency's approval switch, set as the test needs it (the panel above the inbox). */
async function approvalRule(page: Page, on: boolean) {
  const toggle = page.getByRole('switch', { name: /^店舗の返信に承認を必須にする/ });
  await expect(toggle).toBeVisible();
  if ((await toggle.isChecked()) !== on) {
    await toggle.click({ force: true });
    await expect(page.getByText('返信の承認の設定を保存しました。').first()).toBeVisible();
  }
  await expect(toggle).toBeChecked({ checked: on });
}

test('an agency drafts a reply to a clinic’s 1-star review across its stores; the check flags a superlative, the edited reply is approved by the store and reaches Google once', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const comment = `施術後も腰の痛みが続いています。(${Date.now()})`;
  const written = await writeGoogleReview(request, GOOGLE.hogushian, {
    star_rating: 1,
    comment,
    reviewer: '高橋 健',
  });

  // The agency opens one store, then adds the clinic: the inbox reads both.
  await login(page, 'agency@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);
  await page.getByRole('button', { name: `${OTHER} ダッシュボード` }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page
    .getByRole('navigation', { name: 'メインメニュー' })
    .getByRole('link', { name: '口コミ' })
    .click();
  await expect(page).toHaveURL(/\/reviews/);
  await settled(page);
  await page.getByRole('button', { name: '店舗を選択' }).click();
  const selector = page.getByRole('dialog', { name: '店舗を選択' });
  await selector.getByRole('checkbox', { name: CLINIC }).check();
  await selector.getByRole('button', { name: '選択' }).click();
  await approvalRule(page, true);

  // Unreplied 1–2 stars across both stores; the sync reads Google every minute here.
  await gotoSettled(page, '/reviews?stars=1,2&replied=unreplied');
  const card = page.getByRole('article').filter({ hasText: comment });
  await expect(async () => {
    await page.reload();
    await expect(card).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 150_000, intervals: [5_000] });
  await expect(card.getByText(CLINIC)).toBeVisible();

  await card.getByRole('button', { name: '返信する' }).click();
  await card.getByRole('button', { name: 'テンプレートから' }).click();
  const box = card.getByRole('textbox', { name: '返信内容' });
  await expect(box).not.toHaveValue('');
  // A superlative a clinic may not make (医療広告ガイドライン): flagged, the request blocked.
  const drafted = await box.inputValue();
  await box.fill(`${drafted}当院は最先端の設備でお待ちしております。`);
  await expect(card.getByTestId('review-finding').first()).toContainText('最先端');
  const ask = card.getByRole('button', { name: '承認を依頼' });
  await expect(ask).toBeDisabled();
  const reply = `${drafted}ご不安な点は次回のご来院時にお聞かせください。`;
  await box.fill(reply);
  await expect(card.getByTestId('review-finding')).toHaveCount(0);
  await ask.click();
  await expect(page.getByText('承認を依頼しました。').first()).toBeVisible();
  await expect(card.getByTestId('review-approval')).toContainText('承認待ち');
  // The agency cannot approve its own request, and nothing has reached Google.
  await expect(card.getByRole('button', { name: '承認して送信' })).toHaveCount(0);
  expect(await googleReplyCalls(request, written.name)).toBe(0);

  // The clinic's owner is mailed, signs in and approves: sent to Google, once.
  const owner = await (await browser.newContext()).newPage();
  await expect(async () => {
    const mails = await request.get(
      `/sandbox/mail?to=${encodeURIComponent('store10@tenpo.example')}`,
      { headers: { Accept: 'application/json' } },
    );
    const data = ((await mails.json()) as { data: { subject: string }[] }).data;
    expect(data.some((m) => m.subject.includes('承認依頼'))).toBe(true);
  }).toPass({ timeout: 30_000 });
  await login(owner, 'store10@tenpo.example');
  // Signed in before going on: a navigation right after the click can cut the sign-in short.
  await expect(owner).not.toHaveURL(/\/login/);
  await gotoSettled(owner, '/reviews');
  const queue = owner.getByTestId(/^approval-\d+$/).filter({ hasText: reply });
  await expect(queue).toBeVisible();
  await queue.getByRole('button', { name: '承認して送信' }).click();
  await expect(owner.getByText('承認して送信しました。').first()).toBeVisible();
  await owner.context().close();

  const atGoogle = await googleReview(request, GOOGLE.hogushian, written.name);
  expect(atGoogle.reviewReply?.comment).toBe(reply);
  expect(await googleReplyCalls(request, written.name)).toBe(1);

  // Back in the agency's inbox: sent, and the rule set off again for the other tests.
  await gotoSettled(page, `/reviews?replied=replied&q=${encodeURIComponent(comment)}`);
  await expect(card.getByTestId('review-reply')).toContainText(reply);
  await approvalRule(page, false);
});
