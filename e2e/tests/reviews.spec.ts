import { GOOGLE, googleReview, writeGoogleReview } from './providers';
import { expect, gotoSettled, login, test } from './support';

test('a new 1-star review reaches the shop’s inbox and mailbox; the check stops a No.1 claim, the edited reply reaches Google once', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: '口コミ' }).first().click();
  await expect(page).toHaveURL(/\/reviews/);
  // The shop's first sync has read its reviews (a review is "new" only after it).
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('article').first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 90_000, intervals: [3_000] });

  const comment = `料理が冷めていて残念でした。(${Date.now()})`;
  const written = await writeGoogleReview(request, GOOGLE.shop, {
    star_rating: 1,
    comment,
    reviewer: '山田 太郎',
  });
  await gotoSettled(page, '/reviews?stars=1,2&replied=unreplied');
  // The sync reads the shop's reviews every minute here (REVIEWS_SYNC_MINUTES in the e2e server).
  const card = page.getByRole('article').filter({ hasText: comment });
  await expect(async () => {
    await page.reload();
    await expect(card).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 150_000, intervals: [5_000] });
  await expect(card.getByRole('img', { name: /★1/ })).toBeVisible();

  await card.getByRole('button', { name: '返信する' }).click();
  const box = card.getByRole('textbox', { name: '返信内容' });
  await box.fill('ご来店ありがとうございました。当店は地域No.1のカフェです。');
  await expect(card.getByTestId('review-finding').first()).toContainText('No.1');
  const send = card.getByRole('button', { name: '送信' });
  await expect(send).toBeDisabled();
  const reply = 'ご意見ありがとうございます。料理の温度管理を見直し、改善に努めてまいります。';
  await box.fill(reply);
  await expect(card.getByTestId('review-finding')).toHaveCount(0);
  await expect(send).toBeEnabled();
  await send.click();
  await expect(page.getByText('返信を送信しました。').first()).toBeVisible();
  // Replied, it leaves the unreplied list; among the replied ones it shows the reply's state.
  await expect(card).toHaveCount(0);
  await gotoSettled(page, `/reviews?replied=replied&q=${encodeURIComponent(comment)}`);
  await expect(card.getByTestId('review-reply')).toContainText(reply);
  await expect(card.getByTestId('review-reply')).toContainText(/審査中|公開中/);

  // At Google: the one reply, with the edited text.
  const atGoogle = await googleReview(request, GOOGLE.shop, written.name);
  expect(atGoogle.reviewReply?.comment).toBe(reply);

  // The shop's mailbox has the new-review mail with the review's text.
  await expect(async () => {
    const mails = await request.get(
      `/sandbox/mail?to=${encodeURIComponent('shop@tenpo.example')}`,
      {
        headers: { Accept: 'application/json' },
      },
    );
    const data = ((await mails.json()) as { data: { subject: string; text: string }[] }).data;
    expect(data.some((m) => m.subject.includes('新しい口コミ') && m.text.includes(comment))).toBe(
      true,
    );
  }).toPass({ timeout: 30_000 });
});
