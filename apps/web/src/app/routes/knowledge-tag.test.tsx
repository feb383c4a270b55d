import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DEFAULT_SCHEMA_TEMPLATE_TEXT,
  templateMessages,
  type KnowledgeTag,
  type SchemaMarkup,
} from '@tenpo/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, loginData, mockApi, ok, renderAt, resetState, signIn } from '../../test/render';

const tag = (over: Partial<KnowledgeTag> = {}): KnowledgeTag => ({
  api_key: 'API_key-1234567890123456789012',
  app_key: 'APP_key-1234567890123456789012',
  entity_id: '4821390157204861230',
  analytics_option: null,
  seen: {
    installed: false,
    first_seen_at: null,
    last_seen_at: null,
    page_origin: null,
    embed_count: 0,
    website_origin: 'https://cafe-tenpo.example',
    on_website: null,
  },
  view_count: 0,
  ...over,
});

const markup = (over: Partial<SchemaMarkup> = {}): SchemaMarkup => ({
  template: DEFAULT_SCHEMA_TEMPLATE_TEXT,
  is_default: true,
  default_template: DEFAULT_SCHEMA_TEMPLATE_TEXT,
  ...over,
});

describe('/knowledge-tag', () => {
  beforeEach(() => resetState());
  afterEach(() => vi.restoreAllMocks());

  it('leads to the add flow, and the check modal opens the rich-results test with the URL', async () => {
    mockApi({});
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    signIn();
    const user = userEvent.setup();
    renderAt('/knowledge-tag');
    expect(await screen.findByRole('link', { name: 'ナレッジタグを追加' })).toHaveAttribute(
      'href',
      '/add-knowledge-tag',
    );
    await user.click(screen.getByRole('button', { name: '構造化データをテスト' }));
    const dialog = await screen.findByRole('dialog', { name: 'リッチリザルト テスト' });
    const url = within(dialog).getByLabelText('ウェブサイトの URL');
    await user.type(url, 'cafe-tenpo');
    await user.click(within(dialog).getByRole('button', { name: 'テストを開く' }));
    expect(
      within(dialog).getByText('URL は http:// または https:// から始まる形式で入力してください。'),
    ).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    await user.clear(url);
    await user.type(url, 'https://cafe-tenpo.example/menu?a=1');
    await user.click(within(dialog).getByRole('button', { name: 'テストを開く' }));
    expect(open).toHaveBeenCalledWith(
      'https://search.google.com/test/rich-results?url=https%3A%2F%2Fcafe-tenpo.example%2Fmenu%3Fa%3D1',
      '_blank',
      'noopener',
    );
  });
});

describe('/add-knowledge-tag', () => {
  beforeEach(() => resetState());

  it('shows the script tag, the embed codes and whether the tag was seen; finish records the analytics option', async () => {
    let current = tag();
    const { calls } = mockApi({
      // Leaving for /knowledge-tag is a route change, which rotates the session.
      'GET /refresh-token': ok(loginData()),
      'GET /knowledge-tag': () => ok(current),
      'PUT /knowledge-tag/settings': (req) => {
        current = {
          ...current,
          analytics_option: (req.body as { analytics_option: number }).analytics_option,
        };
        return ok(current, 'アクセス解析の設定を保存しました。');
      },
    });
    signIn();
    const user = userEvent.setup();
    const { router } = renderAt('/add-knowledge-tag');
    const script = await screen.findByTestId('knowledge-tag-script');
    expect(script).toHaveTextContent(
      `<script src="${window.location.origin}/api/knowledge-tag/embed?api_key=API_key-1234567890123456789012&app_key=APP_key-1234567890123456789012&entity_id=4821390157204861230"></script>`,
    );
    expect(calls.find((c) => c.path === '/knowledge-tag')?.url.searchParams.get('user_id')).toBe(
      '1',
    );
    expect(screen.getByText('<span data-tenpo-field="name"></span>')).toBeInTheDocument();
    expect(screen.getByText('<span data-tenpo-field="hours"></span>')).toBeInTheDocument();
    expect(screen.getByText(/data-tenpo-field と data-kt-field のどちらでも/)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'まだナレッジタグの読み込みを確認できていません。',
    );

    // The shop's page loads the tag; 再確認 reads the embed calls' record again.
    current = tag({
      seen: {
        installed: true,
        first_seen_at: '2026-11-25T01:02:03.000Z',
        last_seen_at: '2026-11-25T03:04:05.000Z',
        page_origin: 'https://cafe-tenpo.example',
        embed_count: 4,
        website_origin: 'https://cafe-tenpo.example',
        on_website: true,
      },
    });
    await user.click(screen.getByRole('button', { name: '再確認' }));
    expect(await screen.findByText('ナレッジタグの設置を確認しました。')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      '最終確認: 2026/11/25 12:04:05（https://cafe-tenpo.example）／初回確認: 2026/11/25 10:02:03／読み込み回数: 4',
    );

    expect(screen.getByRole('status')).toHaveTextContent(
      '登録されているウェブサイト（https://cafe-tenpo.example）で読み込まれています。',
    );
    await user.click(screen.getByRole('button', { name: '完了' }));
    const dialog = await screen.findByRole('dialog', { name: 'アクセス解析の設定' });
    await user.click(
      within(dialog).getByRole('radio', { name: '閲覧者が同意した場合のみ計測する（オプトイン）' }),
    );
    expect(within(dialog).getByText(/tenpoKnowledgeTag.optIn\(\)/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: '保存して完了' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/knowledge-tag'));
    await waitFor(() => expect(calls.some((c) => c.path === '/refresh-token')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      user_id: 1,
      analytics_option: 2,
    });
  });

  it('cancel returns to /knowledge-tag without recording anything', async () => {
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData()),
      'GET /knowledge-tag': ok(tag()),
    });
    signIn();
    const user = userEvent.setup();
    const { router } = renderAt('/add-knowledge-tag');
    await user.click(await screen.findByRole('link', { name: 'キャンセル' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/knowledge-tag'));
    // The route change's rotation is awaited, so that no call is left in flight.
    await waitFor(() => expect(calls.some((c) => c.path === '/refresh-token')).toBe(true));
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });
});

describe('/add-knowledge-tag/schema-markup', () => {
  beforeEach(() => resetState());

  it('refuses invalid JSON with a message and no call, saves a valid template, and resets to the default', async () => {
    const mine = '{"@type": "Cafe", "name": "{{name}}"}';
    const { calls } = mockApi({
      'GET /knowledge-tag/schema-markup': ok(markup()),
      'PUT /knowledge-tag/schema-markup': (req) =>
        ok(
          markup({ template: (req.body as { template: string }).template, is_default: false }),
          'マークアップを保存しました。',
        ),
      'DELETE /knowledge-tag/schema-markup': ok(markup(), 'マークアップを初期状態に戻しました。'),
    });
    signIn();
    const user = userEvent.setup();
    renderAt('/add-knowledge-tag/schema-markup');
    const editor = await screen.findByRole('textbox', { name: 'JSON-LD テンプレート' });
    expect(editor).toHaveValue(DEFAULT_SCHEMA_TEMPLATE_TEXT);
    expect(screen.getByText('初期テンプレートを使用中')).toBeInTheDocument();

    await user.clear(editor);
    await user.click(editor);
    await user.paste('{"@type": "Cafe",');
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText(templateMessages.invalidJson)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    await user.clear(editor);
    await user.paste(mine);
    await user.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('独自のテンプレートを使用中')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ user_id: 1, template: mine });

    await user.click(screen.getByRole('button', { name: '初期状態に戻す' }));
    expect(await screen.findByText('初期テンプレートを使用中')).toBeInTheDocument();
    expect(editor).toHaveValue(DEFAULT_SCHEMA_TEMPLATE_TEXT);
    expect(calls.find((c) => c.method === 'DELETE')?.url.searchParams.get('user_id')).toBe('1');
    expect(screen.getByRole('link', { name: 'キャンセル' })).toHaveAttribute(
      'href',
      '/add-knowledge-tag',
    );
  });

  it('shows the server’s message when it refuses the template', async () => {
    mockApi({
      'GET /knowledge-tag/schema-markup': ok(markup()),
      'PUT /knowledge-tag/schema-markup': fail(
        422,
        { template: ['サーバーの理由'] },
        'サーバーの理由',
      ),
    });
    signIn();
    const user = userEvent.setup();
    renderAt('/add-knowledge-tag/schema-markup');
    await user.click(await screen.findByRole('button', { name: '保存' }));
    expect(await screen.findByText('サーバーの理由')).toBeInTheDocument();
  });
});
