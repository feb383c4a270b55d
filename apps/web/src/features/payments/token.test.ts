import { paymentJa } from '@tenpo/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  generateCardToken,
  loadTokenScript,
  resetTokenScript,
  tokenErrorMessage,
  type TokenRequest,
  type TokenResult,
} from './token';

const URL_ = 'http://sandbox.test/sbps/sbpstoken/com_sbps_system_token.js';
const provider = { token_script_url: URL_, merchant_id: '30132', service_id: '103' };

afterEach(() => {
  delete window.com_sbps_system;
  document.head.querySelectorAll('script[data-token-script]').forEach((s) => s.remove());
  resetTokenScript();
});

const scripts = () => document.head.querySelectorAll(`script[src="${URL_}"]`);

describe('token script', () => {
  it('is injected once, however many ask, and resolves when it has loaded', async () => {
    const a = loadTokenScript(URL_);
    const b = loadTokenScript(URL_);
    expect(scripts()).toHaveLength(1);
    const generateToken = vi.fn();
    window.com_sbps_system = { generateToken };
    scripts()[0]?.dispatchEvent(new Event('load'));
    expect((await a).generateToken).toBe(generateToken);
    expect(await b).toBe(await a);
    await loadTokenScript(URL_);
    expect(scripts()).toHaveLength(1);
  });

  it('a failed load is the token failure, and the next try injects again', async () => {
    const a = loadTokenScript(URL_);
    scripts()[0]?.dispatchEvent(new Event('error'));
    await expect(a).rejects.toThrow(paymentJa.tokenFailed);
    scripts()[0]?.remove();
    void loadTokenScript(URL_).catch(() => {});
    expect(scripts()).toHaveLength(1);
  });

  it('sends the number without spaces, the expiry as YYYYMM and the code to generateToken', async () => {
    const generateToken = vi.fn((_req: TokenRequest, cb: (r: TokenResult) => void) =>
      cb({ result: 'OK', tokenResponse: { token: 'tk', tokenKey: 'tkk' } }),
    );
    window.com_sbps_system = { generateToken };
    const r = await generateCardToken(provider, {
      number: '4111 1111 1111 1111',
      year: '2030',
      month: '04',
      cvv: '123',
    });
    expect(r).toEqual({ token: 'tk', tokenKey: 'tkk' });
    expect(generateToken.mock.calls[0]?.[0]).toEqual({
      merchantId: '30132',
      serviceId: '103',
      ccNumber: '4111111111111111',
      ccExpiration: '203004',
      securityCode: '123',
    });
  });

  it('NG on the number, expiry or code is "card invalid"; any other NG is "token failed"', async () => {
    expect(tokenErrorMessage('03003')).toBe(paymentJa.cardInvalid);
    expect(tokenErrorMessage('07003')).toBe(paymentJa.cardInvalid);
    expect(tokenErrorMessage('07004')).toBe(paymentJa.cardInvalid);
    expect(tokenErrorMessage('05005')).toBe(paymentJa.cardInvalid);
    expect(tokenErrorMessage('14000')).toBe(paymentJa.tokenFailed);
    expect(tokenErrorMessage('99999')).toBe(paymentJa.tokenFailed);
    window.com_sbps_system = {
      generateToken: (_r, cb) => cb({ result: 'NG', errorCode: '99999' }),
    };
    await expect(
      generateCardToken(provider, {
        number: '4111111111111111',
        year: '2030',
        month: '04',
        cvv: '1',
      }),
    ).rejects.toThrow(paymentJa.tokenFailed);
  });
});
