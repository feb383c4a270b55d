import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BUILTIN_REPLY_TEMPLATES,
  reviewTemplateJa,
  type ReplyTemplateList,
  type ReplyTemplateView,
  type ReviewDraft,
} from '@tenpo/domain';
import { fail, mockApi, ok, renderAt, resetState, signIn, type MockRequest } from '@/test/render';
import { noApprovals, review, reviewPage } from '@/test/reviews';

// Reply templates and drafts on /reviews (ADR 0091): the draft buttons above the reply's field,
// and the templates dialog reached from the inbox's header.

const builtin: ReplyTemplateView[] = BUILTIN_REPLY_TEMPLATES.map((b) => ({
  id: null,
  key: b.key,
  star_band: b.star_band,
  body: b.body,
  source: 'builtin',
  editable: false,
  updated_at: null,
}));

const list = (over: Partial<ReplyTemplateList> = {}): ReplyTemplateList => ({
  templates: builtin,
  llm_enabled: true,
  can_edit: true,
  can_edit_agency: false,
  ...over,
});

const draftOf = (comment: string, source: 'template' | 'llm'): ReviewDraft => ({
  comment,
  source,
  template_id: null,
  template_key: source === 'template' ? 'builtin.high.1' : null,
  model: source === 'llm' ? 'tenpo-sandbox-chat' : null,
  rule_sets: ['premiums_act', 'personal_data'],
  findings: [],
});

const setup = (table: Parameters<typeof mockApi>[0] = {}) => {
  const api = mockApi({
    ...noApprovals,
    'GET /reviews': ok(reviewPage([review(7)])),
    'GET /reviews/templates': ok(list()),
    'POST /reviews/check': ok({ rule_sets: ['premiums_act', 'personal_data'], findings: [] }),
    'POST /reviews/7/draft': (req: MockRequest) =>
      ok(
        (req.body as { source: string }).source === 'llm'
          ? draftOf('AIの下書きです。', 'llm')
          : draftOf('テンプレートの下書きです。', 'template'),
      ),
    ...table,
  });
  signIn();
  return api;
};

const openEditor = async () => {
  const card = await screen.findByTestId('review-7');
  await userEvent.click(within(card).getByRole('button', { name: '返信する' }));
  return within(card);
};
const draftCalls = (calls: MockRequest[]) =>
  calls.filter((c) => c.path === '/reviews/7/draft').map((c) => c.body);

describe('/reviews: drafts above the reply', () => {
  beforeEach(resetState);

  it('テンプレートから puts the draft in the empty field, to be edited and sent', async () => {
    const { calls } = setup();
    renderAt('/reviews');
    const card = await openEditor();
    await userEvent.click(card.getByRole('button', { name: 'テンプレートから' }));
    const box = card.getByRole('textbox', { name: '返信内容' });
    await waitFor(() => expect(box).toHaveValue('テンプレートの下書きです。'));
    expect(draftCalls(calls)).toEqual([{ user_id: 1, source: 'template' }]);
    expect(
      card.getByText(
        'テンプレートから下書きを作成しました。内容を確認・編集してから送信してください。',
      ),
    ).toBeInTheDocument();
    // Nothing was sent: only the check ran on the draft.
    expect(calls.some((c) => c.path === '/reviews/7/reply')).toBe(false);
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/reviews/check').at(-1)?.body).toMatchObject({
        comment: 'テンプレートの下書きです。',
      }),
    );
  });

  it('AIで下書き asks before replacing text already typed; キャンセル keeps it', async () => {
    const { calls } = setup();
    renderAt('/reviews');
    const card = await openEditor();
    const box = card.getByRole('textbox', { name: '返信内容' });
    await userEvent.type(box, '自分で書いた返信');
    await userEvent.click(await card.findByRole('button', { name: 'AIで下書き' }));
    const ask = card.getByRole('alertdialog', { name: '入力中の返信を置き換えますか？' });
    await userEvent.click(within(ask).getByRole('button', { name: 'キャンセル' }));
    expect(box).toHaveValue('自分で書いた返信');
    expect(draftCalls(calls)).toEqual([]);

    await userEvent.click(card.getByRole('button', { name: 'AIで下書き' }));
    await userEvent.click(card.getByRole('button', { name: '置き換える' }));
    await waitFor(() => expect(box).toHaveValue('AIの下書きです。'));
    expect(draftCalls(calls)).toEqual([{ user_id: 1, source: 'llm' }]);
    expect(
      card.getByText(
        'AI（tenpo-sandbox-chat）が下書きを作成しました。内容を確認・編集してから送信してください。',
      ),
    ).toBeInTheDocument();
  });

  it('hides AIで下書き when no model is configured, and shows a refusal in Japanese', async () => {
    setup({
      'GET /reviews/templates': ok(list({ llm_enabled: false })),
      'POST /reviews/7/draft': {
        status: 503,
        body: { status_code: 503, message: reviewTemplateJa.llmBusy },
      },
    });
    renderAt('/reviews');
    const card = await openEditor();
    const fromTemplate = card.getByRole('button', { name: 'テンプレートから' });
    await waitFor(() => expect(card.queryByRole('button', { name: 'AIで下書き' })).toBeNull());
    await userEvent.click(fromTemplate);
    expect(await card.findByText(reviewTemplateJa.llmBusy)).toBeInTheDocument();
    expect(card.getByRole('textbox', { name: '返信内容' })).toHaveValue('');
  });
});

describe('/reviews: the templates dialog', () => {
  beforeEach(resetState);

  it('opens by keyboard from the header and lists each band, the standard ones marked', async () => {
    setup();
    renderAt('/reviews');
    const open = await screen.findByRole('button', { name: '返信テンプレート' });
    open.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: '返信テンプレート' });
    for (const band of Object.values(reviewTemplateJa.bands))
      expect(within(dialog).getByRole('heading', { name: band })).toBeInTheDocument();
    expect(within(dialog).getAllByText('標準')).toHaveLength(builtin.length);
    expect(
      within(dialog).getAllByText('登録されたテンプレートがないため、標準の文面を使います。'),
    ).toHaveLength(3);
    // The standard ones cannot be edited.
    expect(within(dialog).queryByRole('button', { name: /を編集$/ })).toBeNull();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('adds, edits and deletes a template; a refused body shows under the field', async () => {
    const own: ReplyTemplateView = {
      id: 31,
      key: '31',
      star_band: 'low',
      body: '{store_name}です。申し訳ございません。',
      source: 'store',
      editable: true,
      updated_at: '2026-11-28T00:00:00Z',
    };
    let tries = 0;
    const { calls } = setup({
      'GET /reviews/templates': () =>
        ok(list({ templates: [own, ...builtin.filter((b) => b.star_band !== 'low')] })),
      'POST /reviews/templates': () => {
        tries += 1;
        return tries === 1
          ? fail(422, { body: [reviewTemplateJa.unknownVariables('{name}')] })
          : ok({ ...own, id: 32, key: '32', star_band: 'mid' }, reviewTemplateJa.created);
      },
      'PATCH /reviews/templates/31': ok(own, reviewTemplateJa.updated),
      'DELETE /reviews/templates/31': ok({ id: 31 }, reviewTemplateJa.deleted),
    });
    renderAt('/reviews');
    await userEvent.click(await screen.findByRole('button', { name: '返信テンプレート' }));
    const dialog = within(await screen.findByRole('dialog', { name: '返信テンプレート' }));
    expect(await dialog.findByText('この店舗')).toBeInTheDocument();

    await userEvent.click(dialog.getByRole('button', { name: '中評価（★3）のテンプレートを追加' }));
    const body = dialog.getByRole('textbox', { name: '本文' });
    await userEvent.type(body, '{{name}様');
    await userEvent.click(dialog.getByRole('button', { name: '保存' }));
    expect(
      await dialog.findByText(reviewTemplateJa.unknownVariables('{name}')),
    ).toBeInTheDocument();
    await userEvent.clear(body);
    await userEvent.type(body, 'ご意見ありがとうございます。');
    await userEvent.click(dialog.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(reviewTemplateJa.created)).toBeInTheDocument();
    expect(
      calls.filter((c) => c.method === 'POST' && c.path === '/reviews/templates').at(-1)?.body,
    ).toEqual({
      user_id: 1,
      star_band: 'mid',
      body: 'ご意見ありがとうございます。',
      scope: 'store',
    });

    await userEvent.click(dialog.getByRole('button', { name: 'テンプレート 1 を編集' }));
    const edit = dialog.getByRole('textbox', { name: '本文' });
    expect(edit).toHaveValue(own.body);
    await userEvent.type(edit, '改善します。');
    await userEvent.click(dialog.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(reviewTemplateJa.updated)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      user_id: 1,
      star_band: 'low',
      body: `${own.body}改善します。`,
    });

    await userEvent.click(dialog.getByRole('button', { name: 'テンプレート 1 を削除' }));
    await userEvent.click(dialog.getByRole('button', { name: '削除する' }));
    expect(await screen.findByText(reviewTemplateJa.deleted)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.url.searchParams.get('user_id')).toBe('1');
  });

  it('offers no add button to who only reads the store (a group leader)', async () => {
    setup({ 'GET /reviews/templates': ok(list({ can_edit: false })) });
    renderAt('/reviews');
    await userEvent.click(await screen.findByRole('button', { name: '返信テンプレート' }));
    const dialog = within(await screen.findByRole('dialog', { name: '返信テンプレート' }));
    expect(await dialog.findByRole('heading', { name: '低評価（★1〜2）' })).toBeInTheDocument();
    expect(dialog.queryByRole('button', { name: /のテンプレートを追加$/ })).toBeNull();
  });

  it('offers an agency the choice of all its stores', async () => {
    setup({ 'GET /reviews/templates': ok(list({ can_edit_agency: true })) });
    renderAt('/reviews');
    await userEvent.click(await screen.findByRole('button', { name: '返信テンプレート' }));
    const dialog = within(await screen.findByRole('dialog', { name: '返信テンプレート' }));
    await userEvent.click(
      await dialog.findByRole('button', { name: '高評価（★4〜5）のテンプレートを追加' }),
    );
    expect(dialog.getByRole('radio', { name: '代理店のすべての店舗' })).toBeInTheDocument();
    expect(dialog.getByRole('radio', { name: 'この店舗のみ' })).toBeChecked();
  });
});
