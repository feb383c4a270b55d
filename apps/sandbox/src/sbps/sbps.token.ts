import type { FastifyInstance, FastifyReply } from 'fastify';
import { randomToken } from '../shared/http';
import { cardBrand, luhnOk, maskCard, TOKEN_ERR } from './sbps.constants';
import { currentMonth, type SbpsContext } from './sbps.core';

/**
 * The token script SBPS serves (reference/providers.md §5.4): the card goes from the browser to
 * SBPS, the merchant's server only sees `token` + `tokenKey`. Plain ES5 so any page can load it;
 * it knows its own absolute base because the page that loads it lives on another origin.
 */
export function tokenScript(tokensUrl: string): string {
  return `/* SBPS sandbox token script (com_sbps_system_token.js) */
(function (w) {
  'use strict';
  var TOKENS_URL = ${JSON.stringify(tokensUrl)};
  var ns = w.com_sbps_system || {};
  ns.generateToken = function (params, callback) {
    var p = params || {};
    var body = {
      merchantId: String(p.merchantId == null ? '' : p.merchantId),
      serviceId: String(p.serviceId == null ? '' : p.serviceId),
      ccNumber: String(p.ccNumber == null ? '' : p.ccNumber),
      ccExpiration: String(p.ccExpiration == null ? '' : p.ccExpiration),
      securityCode: String(p.securityCode == null ? '' : p.securityCode)
    };
    var done = function (res) {
      if (typeof callback === 'function') callback(res);
    };
    w.fetch(TOKENS_URL, {
      method: 'POST',
      mode: 'cors',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json();
    }).then(done, function () {
      done({ result: 'NG', errorCode: '${TOKEN_ERR.system}' });
    });
  };
  w.com_sbps_system = ns;
})(window);
`;
}

const cors = (reply: FastifyReply): FastifyReply =>
  reply.headers({
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': 'Content-Type',
    'access-control-max-age': '600',
  });

/** `GET /sbpstoken/com_sbps_system_token.js` and `POST /sbpstoken/tokens` (CORS `*`). */
export function registerToken(app: FastifyInstance, ctx: SbpsContext): void {
  const { rt, store, merchant } = ctx;
  const tokensUrl = `${rt.baseUrl}/sbps/sbpstoken/tokens`;

  app.get('/sbpstoken/com_sbps_system_token.js', async (_req, reply) => {
    cors(reply).type('application/javascript; charset=utf-8').header('cache-control', 'no-cache');
    return tokenScript(tokensUrl);
  });

  app.options('/sbpstoken/tokens', async (_req, reply) => cors(reply).code(204).send());

  app.post('/sbpstoken/tokens', async (req, reply) => {
    cors(reply);
    let raw: unknown = req.body;
    if (typeof raw === 'string') {
      try {
        raw = JSON.parse(raw);
      } catch {
        raw = {};
      }
    }
    const b = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const str = (k: string): string =>
      typeof b[k] === 'string' || typeof b[k] === 'number' ? String(b[k]).trim() : '';
    const ng = (errorCode: string) => ({ result: 'NG', errorCode });

    if (str('merchantId') !== merchant.merchantId || str('serviceId') !== merchant.serviceId)
      return ng(TOKEN_ERR.merchant);
    const number = str('ccNumber').replace(/[\s-]/g, '');
    if (number === '') return ng(TOKEN_ERR.numberMissing);
    if (!/^\d{14,16}$/.test(number)) return ng(TOKEN_ERR.numberLength);
    if (!luhnOk(number)) return ng(TOKEN_ERR.numberLuhn);
    const exp = str('ccExpiration');
    if (exp === '') return ng(TOKEN_ERR.expiryMissing);
    const m = /^(\d{4})(\d{2})$/.exec(exp);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return ng(TOKEN_ERR.expiryFormat);
    if (exp < currentMonth(rt)) return ng(TOKEN_ERR.expiryPast);
    const cvv = str('securityCode');
    if (cvv === '') return ng(TOKEN_ERR.cvvMissing);
    if (!/^\d{3,4}$/.test(cvv)) return ng(TOKEN_ERR.cvvFormat);

    const t = rt.now();
    const card = { number, expiration: exp, brand: cardBrand(number) };
    const tok = {
      token: randomToken('', 24),
      tokenKey: randomToken('', 24),
      merchantId: merchant.merchantId,
      serviceId: merchant.serviceId,
      card,
      createdAt: t,
      expiresAt: t + rt.settings().sbps.tokenTtlSeconds * 1000,
      usedAt: null,
    };
    store.data.tokens.push(tok);
    store.save();
    // A declining card still gets a token: only the charge finds out (contract §2 test cards).
    return {
      result: 'OK',
      tokenResponse: {
        token: tok.token,
        tokenKey: tok.tokenKey,
        maskedCcNumber: maskCard(number),
        cardBrandCode: card.brand,
      },
    };
  });
}
