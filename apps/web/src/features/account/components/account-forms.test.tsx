import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IMAGE_SIZE_LIMIT_KB } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { Providers } from '@/app/providers';
import { createQueryClient } from '@/lib/query-client';
import { demoUser, fail, mockApi, ok, resetState, signIn } from '@/test/render';
import { AccountInformationForm } from './account-information-form';
import { ChangePasswordForm } from './change-password-form';
import { imageFileError } from './image-file';
import { LogoUploadDialog } from './logo-upload-dialog';

// The accept attribute limits the file picker; a file input has no role to query it by.
const fileInput = (within: HTMLElement) => within.querySelector('input[type="file"]');
const IMAGES = 'image/jpeg,image/png,image/gif,image/webp';

const wrap = (ui: React.ReactNode) =>
  render(
    <Providers client={createQueryClient()} env="test">
      {ui}
    </Providers>,
  );

describe('change password form', () => {
  beforeEach(resetState);

  it('requires every field, 8 characters and an equal confirmation (spec 1 §5)', async () => {
    mockApi({});
    wrap(<ChangePasswordForm />);
    const save = screen.getByRole('button', { name: '保存' });
    await userEvent.click(save);
    expect(await screen.findByText('現在のパスワード を入力してください。')).toBeInTheDocument();
    // The fields are 新しいパスワード…: so are their messages (issue 7 §3.12).
    expect(screen.getByText('新しいパスワード を入力してください。')).toBeInTheDocument();
    expect(screen.getByText('新しいパスワード（確認） を入力してください。')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^現在のパスワード/), 'short');
    await userEvent.type(screen.getByLabelText(/^新しいパスワード\s*\*?$/), 'short');
    await userEvent.type(screen.getByLabelText(/^新しいパスワード（確認）/), 'shorter');
    await userEvent.click(save);
    expect(
      await screen.findByText('現在のパスワードは8文字以上で入力してください。'),
    ).toBeInTheDocument();
    expect(screen.getByText('新しいパスワードは8文字以上で入力してください。')).toBeInTheDocument();
    expect(
      screen.getByText('新しいパスワード（確認）は8文字以上で入力してください。'),
    ).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/^新しいパスワード\s*\*?$/));
    await userEvent.type(screen.getByLabelText(/^新しいパスワード\s*\*?$/), 'password-1');
    await userEvent.clear(screen.getByLabelText(/^新しいパスワード（確認）/));
    await userEvent.type(screen.getByLabelText(/^新しいパスワード（確認）/), 'password-2');
    await userEvent.click(save);
    expect(
      await screen.findByText('新しいパスワード（確認）が新しいパスワードと一致しません。'),
    ).toBeInTheDocument();
  });

  it('shows the server error for a wrong current password', async () => {
    mockApi({
      'PUT /account-setting/password': fail(422, {
        current_password: ['現在のパスワードが正しくありません。'],
      }),
    });
    wrap(<ChangePasswordForm />);
    await userEvent.type(screen.getByLabelText(/^現在のパスワード/), 'wrong-password');
    await userEvent.type(screen.getByLabelText(/^新しいパスワード\s*\*?$/), 'password-1');
    await userEvent.type(screen.getByLabelText(/^新しいパスワード（確認）/), 'password-1');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('現在のパスワードが正しくありません。')).toBeInTheDocument();
  });

  it('resets the form on success', async () => {
    const { calls } = mockApi({
      'PUT /account-setting/password': ok(null, 'パスワードを変更しました。'),
    });
    wrap(<ChangePasswordForm />);
    await userEvent.type(screen.getByLabelText(/^現在のパスワード/), 'tenpo-demo-1');
    await userEvent.type(screen.getByLabelText(/^新しいパスワード\s*\*?$/), 'password-1');
    await userEvent.type(screen.getByLabelText(/^新しいパスワード（確認）/), 'password-1');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(screen.getByLabelText(/^現在のパスワード/)).toHaveValue(''));
    expect(calls[0]?.body).toEqual({
      current_password: 'tenpo-demo-1',
      password: 'password-1',
      password_confirmation: 'password-1',
    });
    expect(await screen.findByText('パスワードを変更しました。')).toBeInTheDocument();
  });
});

describe('account information form', () => {
  beforeEach(resetState);

  it('requires the person in charge and a valid email (spec 1 §5)', async () => {
    mockApi({ 'GET /account-setting/information': ok(demoUser()) });
    signIn();
    wrap(<AccountInformationForm />);
    const name = await screen.findByLabelText(/^担当者名/);
    expect(name).toHaveValue('青木 翼');
    await userEvent.clear(name);
    await userEvent.clear(screen.getByLabelText(/^メールアドレス/));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('担当者名 を入力してください。')).toBeInTheDocument();
    expect(screen.getByText('メールアドレス を入力してください。')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^メールアドレス/), 'aoki@');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('メールアドレスが正しくありません。')).toBeInTheDocument();
  });

  it('sends the fields as multipart and keeps the optional ones optional', async () => {
    const { calls } = mockApi({
      'GET /account-setting/information': ok(demoUser()),
      'POST /account-setting/information': ok(
        demoUser({ name: '青木 花' }),
        '項目が正常に更新される',
      ),
    });
    signIn();
    wrap(<AccountInformationForm />);
    const name = await screen.findByLabelText(/^担当者名/);
    await userEvent.clear(name);
    await userEvent.type(name, '青木 花');
    await userEvent.clear(screen.getByLabelText(/^会社名/));
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    const body = calls[1]?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('name')).toBe('青木 花');
    expect(body.get('company_name')).toBe('');
    expect(body.get('email')).toBe('shop@tenpo.example');
  });
});

describe('account information: a new e-mail address (issue 22 item 4, ADR 0065)', () => {
  beforeEach(resetState);

  it('asks for the current password only when the address changes, and sends it', async () => {
    const { calls } = mockApi({
      'GET /account-setting/information': ok(demoUser()),
      'POST /account-setting/information': ok(
        demoUser(),
        '新しいメールアドレスに確認メールを送信しました。メールに記載のリンクを開くと、メールアドレスの変更が完了します。',
      ),
    });
    signIn();
    wrap(<AccountInformationForm />);
    const email = await screen.findByLabelText(/^メールアドレス/);
    expect(screen.getByLabelText(/^現在のパスワード/)).toBeInTheDocument();
    await userEvent.clear(email);
    await userEvent.type(email, 'aoki-new@tenpo.example');
    expect(screen.getByText(/メールのリンクを開くまで/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findByText('現在のパスワード を入力してください。')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    await userEvent.type(screen.getByLabelText(/^現在のパスワード/), 'tenpo-demo-1');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    const body = calls[1]?.body as FormData;
    expect(body.get('email')).toBe('aoki-new@tenpo.example');
    expect(body.get('current_password')).toBe('tenpo-demo-1');
    expect(
      await screen.findByText(
        '新しいメールアドレスに確認メールを送信しました。メールに記載のリンクを開くと、メールアドレスの変更が完了します。',
      ),
    ).toBeInTheDocument();
  });
});

describe('logo pickers (issue 7 §3.12)', () => {
  beforeEach(resetState);

  it('the information form says the limit once and offers only images', async () => {
    mockApi({ 'GET /account-setting/information': ok(demoUser()) });
    signIn();
    const { container } = wrap(<AccountInformationForm />);
    await screen.findByLabelText(/^担当者名/);
    expect(screen.getByText('画像ファイル（3072KB まで）')).toBeInTheDocument();
    expect(fileInput(container)).toHaveAttribute('accept', IMAGES);
  });

  it('the logo upload dialog says the limit once and offers only images', () => {
    wrap(<LogoUploadDialog opened onClose={() => {}} onSave={async () => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'ロゴのアップロード' });
    // Exact text: the size used to follow a second time, 「… (3072KB)」.
    expect(screen.getByText('画像ファイル（3072KB まで）')).toBeInTheDocument();
    expect(fileInput(dialog)).toHaveAttribute('accept', IMAGES);
  });
});

describe('image files (spec 1 §5 avatar rule)', () => {
  it('accepts an image within 3072 KB, refuses other files and larger images', () => {
    const img = (size: number, type = 'image/png') =>
      new File([new Uint8Array(size)], 'logo.png', { type });
    expect(imageFileError(img(IMAGE_SIZE_LIMIT_KB * 1024))).toBeNull();
    expect(imageFileError(img(IMAGE_SIZE_LIMIT_KB * 1024 + 1))).toBe(
      '画像は3072KB以下のファイルを選択してください。',
    );
    expect(imageFileError(img(10, 'application/pdf'))).toBe('画像ファイルを選択してください。');
    // Only the kinds the server takes (and the pickers offer).
    expect(imageFileError(img(10, 'image/svg+xml'))).toBe('画像ファイルを選択してください。');
  });
});
