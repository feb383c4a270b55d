import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { reviewKitJa } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, ok, renderAt, resetState, signIn } from '@/test/render';
import { noApprovals, reviewPage } from '@/test/reviews';

// 口コミ依頼キット (issue 25 item 8): the link from Google, its QR code, and the rules.

describe('/reviews: the review-request kit', () => {
  beforeEach(resetState);

  it("shows the store's review link, its QR code and what a request may not do", async () => {
    const { calls } = mockApi({
      ...noApprovals,
      'GET /reviews': ok(reviewPage([])),
      'GET /reviews/request-kit': ok({
        store_name: 'カフェ テンポ 渋谷店',
        new_review_uri: 'https://search.google.com/local/writereview?placeid=ChIJ123',
        qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>',
        rules: [...reviewKitJa.rules],
        card_lead: reviewKitJa.cardLead,
      }),
    });
    signIn();
    renderAt('/reviews');
    await userEvent.click(await screen.findByRole('button', { name: '口コミ依頼キット' }));
    const dialog = within(await screen.findByRole('dialog', { name: '口コミ依頼キット' }));
    expect(await dialog.findByDisplayValue(/writereview\?placeid=ChIJ123/)).toBeInTheDocument();
    expect(
      dialog.getByRole('img', { name: 'カフェ テンポ 渋谷店の口コミを書くページの QR コード' }),
    ).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
    for (const rule of reviewKitJa.rules) expect(dialog.getByText(rule)).toBeInTheDocument();
    expect(
      calls.filter((c) => c.path === '/reviews/request-kit')[0]?.url.searchParams.get('user_id'),
    ).toBe('1');
  });
});
