import { screen, waitFor } from '@testing-library/react';
import type { PublisherRow } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyBranding, hostPrefix } from '../lib/branding';
import { loginData, mockApi, ok, renderAt, resetState, signIn } from '../test/render';

const AGENCY = 'デモエージェンシー 店舗管理';

const domainAnswer = ok({ prefix: 'demo', title: AGENCY, favicon_url: null, logo_url: null });

const googleRow: PublisherRow = {
  publisher_id: 1,
  publisher_key: 'google_my_business',
  publisher_name: 'Google ビジネスプロフィール',
  logo_url: '/images/publisher/google_my_business.svg',
  entity_id: null,
  location_name: null,
  postal_code: null,
  address_lines: [],
  store_code: null,
  status: 0,
  log: [],
};

describe('the agency label of a host (spec 1 §1)', () => {
  it.each([
    ['demo.localhost', 'demo'],
    ['demo.tenpo.example', 'demo'],
    ['Demo.Tenpo.Example', 'demo'],
    ['localhost', null],
    ['127.0.0.1', null],
    ['[::1]', null],
  ])('%s → %s', (host, want) => {
    expect(hostPrefix(host)).toBe(want);
  });

  it('makes no lookup on localhost or an IP address', async () => {
    const { fetchMock } = mockApi({});
    expect(await applyBranding('localhost')).toBe('Tenpo');
    expect(await applyBranding('127.0.0.1')).toBe('Tenpo');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("looks the agency up on its white-label host and takes the agency's title", async () => {
    const { calls } = mockApi({ 'GET /domain/demo/title': domainAnswer });
    expect(await applyBranding('demo.localhost')).toBe(AGENCY);
    expect(calls.map((c) => c.path)).toEqual(['/domain/demo/title']);
  });
});

describe('document title', () => {
  beforeEach(resetState);

  it('names the screen, then Tenpo', async () => {
    mockApi({ 'GET /publisher': ok([googleRow]) });
    signIn({ id: 1 });
    renderAt('/connect-account');
    await waitFor(() => expect(document.title).toBe('アカウント連携 | Tenpo'));
  });

  it('names a public screen too', async () => {
    mockApi({});
    renderAt('/login');
    await waitFor(() => expect(document.title).toBe('ログイン | Tenpo'));
  });

  it("names the agency's title instead of Tenpo on a white-label host", async () => {
    mockApi({
      'GET /domain/demo/title': domainAnswer,
      'GET /publisher': ok([googleRow]),
      'GET /refresh-token': ok(loginData({ id: 5 }, false)),
    });
    await applyBranding('demo.localhost');
    signIn({ id: 5 }, false);
    renderAt('/google-my-business');
    await waitFor(() => expect(document.title).toBe(`Googleビジネスプロフィール連携 | ${AGENCY}`));
  });
});

describe('the product name in texts', () => {
  beforeEach(resetState);

  it("the Google card names the agency's title on its host, never Tenpo", async () => {
    mockApi({
      'GET /domain/demo/title': domainAnswer,
      'GET /publisher': ok([googleRow]),
      'GET /refresh-token': ok(loginData({ id: 5 }, false)),
    });
    await applyBranding('demo.localhost');
    signIn({ id: 5 }, false);
    renderAt('/google-my-business');
    expect(
      await screen.findByText(
        `${AGENCY} をご利用いただくには、店舗の Google ビジネスプロフィールとの連携が必要です。「連携する」を押すと Google の画面に移動します。`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Tenpo/)).not.toBeInTheDocument();
  });

  it('the Google card names Tenpo where no agency brands the host', async () => {
    mockApi({
      'GET /publisher': ok([googleRow]),
      'GET /refresh-token': ok(loginData({ id: 5 }, false)),
    });
    signIn({ id: 5 }, false);
    renderAt('/google-my-business');
    expect(await screen.findByText(/^Tenpo をご利用いただくには/)).toBeInTheDocument();
  });
});
