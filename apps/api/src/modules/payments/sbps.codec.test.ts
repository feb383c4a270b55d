import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { loadConfig } from '../../config';
import { apiHash, type XmlElement } from './sbps.codec';
import { createSbpsClient, isCardError, isTransientError } from './sbps.client';
import {
  desDecrypt,
  desEncrypt,
  parseApiResponse,
  parseSjisForm,
  resultHashOk,
  RESULT_FIELDS,
  sbpsDate,
} from './sbps.codec';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The expected hashes and ciphertexts below were worked out by hand in the shell, not by this
 * code, e.g.
 *   printf '%s' 'credit3d230132103…600tenposandboxhashkey000000000000000000000' | sha1sum
 *   printf '%s' '…スタンダード…' | iconv -f UTF-8 -t SHIFT_JIS | sha1sum
 *   printf '10      ' | openssl enc -des-ede3-cbc -K <hex key> -iv <hex iv> -nopad | base64
 */
const cfg = loadConfig({
  DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-sbps-')),
  PUBLIC_URL: 'http://tenpo.test',
}).payments.sbps;
// 2026-11-26 14:15:00 in Tokyo.
const clock = { now: () => new Date('2026-11-26T05:15:00Z') };
const ORDER = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const KEYS = { key: cfg.desKey, iv: cfg.desIv };

const capture = () => {
  const sent: { url: string; headers: Record<string, string>; body: Buffer }[] = [];
  let reply = '<sps-api-response id="x"><res_result>OK</res_result></sps-api-response>';
  const fetchImpl = (async (url: string, init: RequestInit) => {
    sent.push({
      url,
      headers: init.headers as Record<string, string>,
      body: Buffer.from(init.body as Uint8Array),
    });
    return new Response(new Uint8Array(iconv.encode(reply, 'Shift_JIS')), { status: 200 });
  }) as unknown as typeof fetch;
  return {
    sent,
    fetchImpl,
    answer: (xml: string) => {
      reply = `<?xml version="1.0" encoding="Shift_JIS"?>${xml}`;
    },
  };
};

describe('SBPS codec', () => {
  it('writes SBPS timestamps in Tokyo time', () => {
    expect(sbpsDate(clock.now())).toBe('20261126141500');
  });

  it('signs the A01-1 purchase request (SHA-1 over the fields in order + hash key)', () => {
    const client = createSbpsClient(cfg, clock);
    const back = (o: string) => `http://tenpo.test/api/payment/sbps/return/${o}?user_id=7`;
    const form = client.purchaseForm({
      custCode: 'tenpo-7-abc',
      orderId: ORDER,
      itemId: 'tenpo-plan-1',
      itemName: 'Tenpo Standard',
      amount: 6980,
      successUrl: back('success'),
      cancelUrl: back('cancel'),
      errorUrl: back('error'),
      pagecon: 'http://tenpo.test/api/payment/sbps/notification',
    });
    expect(form.action).toBe('http://tenpo.test/sandbox/sbps/f01/FepBuyInfoReceive.do');
    expect(form.fields.map((f) => f.name).slice(0, 4)).toEqual([
      'pay_method',
      'merchant_id',
      'service_id',
      'cust_code',
    ]);
    expect(form.fields).toHaveLength(31);
    // EMV 3-D Secure (ADR 0059): the hosted page's 3DS method.
    expect(form.fields[0]).toEqual({ name: 'pay_method', value: 'credit3d2' });
    expect(form.fields.at(-1)).toEqual({
      name: 'sps_hashcode',
      value: '75ae4219b5e0cf4dea49c9091836952fcaccb39a',
    });
  });

  const a02 = (): Record<string, string> => {
    const f: Record<string, string> = Object.fromEntries(RESULT_FIELDS.map((k) => [k, '']));
    Object.assign(f, {
      pay_method: 'credit',
      merchant_id: '30132',
      service_id: '103',
      cust_code: 'tenpo-7-abc',
      order_id: ORDER,
      item_id: 'tenpo-plan-1',
      item_name: 'Tenpo Standard',
      amount: '6980',
      pay_type: '0',
      service_type: '0',
      terminal_type: '0',
      request_date: '20261126141500',
      res_pay_method: 'credit',
      res_result: 'OK',
      res_tracking_id: '12345678901234',
      res_payment_date: '20261126141612',
      res_date: '20261126141612',
      limit_second: '600',
      sps_hashcode: '9ea478ef47a89d1f83d6233655fa2106578a35a5',
    });
    return f;
  };

  it('verifies an A02-1 / A03-1 hash and refuses any changed field', () => {
    expect(resultHashOk(a02(), cfg.hashKey)).toBe(true);
    expect(resultHashOk({ ...a02(), amount: '1' }, cfg.hashKey)).toBe(false);
    expect(resultHashOk({ ...a02(), res_result: 'NG' }, cfg.hashKey)).toBe(false);
    expect(resultHashOk({ ...a02(), sps_hashcode: '' }, cfg.hashKey)).toBe(false);
    expect(resultHashOk(a02(), 'another-key')).toBe(false);
  });

  it('reads a Shift_JIS form body', () => {
    const body = `item_name=${[...iconv.encode('スタンダード', 'Shift_JIS')]
      .map((b) => `%${b.toString(16).padStart(2, '0')}`)
      .join('')}&order_id=${ORDER}&x=a+b`;
    expect(parseSjisForm(Buffer.from(body))).toEqual({
      item_name: 'スタンダード',
      order_id: ORDER,
      x: 'a b',
    });
  });

  it('3DES-CBC, space-padded, Base64', () => {
    expect(desEncrypt('10', KEYS)).toBe('TllSq381x+E=');
    expect(desDecrypt('PhrEPOftLZoyuDq3hv3o7A==', KEYS)).toBe('************1111');
  });

  it('sends an XML API request in Shift_JIS with Basic auth, Base64 M fields, 3DES and the hash over Shift_JIS plaintext', async () => {
    const c = capture();
    const client = createSbpsClient(cfg, clock, c.fetchImpl);
    c.answer(
      '<sps-api-response id="ST01-00111-101"><res_result>OK</res_result><res_sps_transaction_id>SPS0001</res_sps_transaction_id><res_tracking_id>12345678901234</res_tracking_id><res_err_code></res_err_code></sps-api-response>',
    );
    const r = await client.authorize({
      custCode: 'tenpo-7-abc',
      orderId: ORDER,
      itemId: 'tenpo-plan-1',
      itemName: 'スタンダード',
      amount: 6980,
    });
    expect(r).toMatchObject({
      result: 'OK',
      trackingId: '12345678901234',
      spsTransactionId: 'SPS0001',
    });
    const req = c.sent[0];
    expect(req?.url).toBe('http://tenpo.test/sandbox/sbps/api/xmlapi.do');
    expect(req?.headers.authorization).toBe(
      `Basic ${Buffer.from('30132103:tenposandboxhashkey000000000000000000000').toString('base64')}`,
    );
    const xml = iconv.decode(req?.body ?? Buffer.alloc(0), 'Shift_JIS');
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="Shift_JIS"\?><sps-api-request id="ST01-00131-101">/,
    );
    // The saved card by cust_code: no token, no card data, not stored again (cust_manage_flg 0).
    expect(xml).not.toContain('<token>');
    expect(xml).not.toContain('<cc_number>');
    expect(xml).toContain('<cust_manage_flg>0</cust_manage_flg>');
    expect(xml).toContain('<item_name>g1iDXoOTg1+BW4No</item_name>');
    expect(xml).toContain('<dealings_type>TllSq381x+E=</dealings_type>');
    expect(xml).toContain('<sps_hashcode>58b95dcd53673a6c22d1239dcf3e37878f52ca9d</sps_hashcode>');
  });

  it('hashes ST02-00201 sales with its nested amount', async () => {
    const c = capture();
    await createSbpsClient(cfg, clock, c.fetchImpl).sales({
      spsTransactionId: 'SPS0001',
      trackingId: '12345678901234',
      amount: 6980,
    });
    const xml = iconv.decode(c.sent[0]?.body ?? Buffer.alloc(0), 'Shift_JIS');
    expect(xml).toContain('<pay_option_manage><amount>6980</amount></pay_option_manage>');
    expect(xml).toContain('<sps_hashcode>b8af73cbadc2e36bfa9bf2630d1c3ac2a66be17f</sps_hashcode>');
  });

  // Each worked out in the shell from the element values in document order, e.g. MG02-00104:
  //   printf '%s' '30132103tenpo-7-abc121120261126141500600<hash key>' | sha1sum
  it.each([
    ['MG02-00131-101', '74cdef703ca652da585d598274aa813ed4ab4325'],
    ['MG02-00132-101', '74cdef703ca652da585d598274aa813ed4ab4325'],
    ['MG02-00104-101', '4c3bd7d85f7f3c8d6b5879cbf07e0a6a421a2095'],
    ['MG02-00103-101', 'b04d5fbddf5aa05fe3d0ce22b468117d6d84bbe9'],
    ['MG01-00101-101', '80502ee89cd18f0dfb9bcdd90e2d1cdd08e2a729'],
  ])('hashes %s as worked out by hand', async (id, hash) => {
    const c = capture();
    const client = createSbpsClient(cfg, clock, c.fetchImpl);
    if (id === 'MG02-00131-101' || id === 'MG02-00132-101')
      await client.registerCard('tenpo-7-abc', 'TOKEN123', 'TOKENKEY456', id === 'MG02-00132-101');
    else if (id === 'MG02-00104-101') await client.referenceCard('tenpo-7-abc');
    else if (id === 'MG02-00103-101') await client.removeCard('tenpo-7-abc');
    else await client.inquire({ spsTransactionId: 'SPS0001', trackingId: '12345678901234' });
    const xml = iconv.decode(c.sent[0]?.body ?? Buffer.alloc(0), 'Shift_JIS');
    expect(xml).toContain(`<sps-api-request id="${id}">`);
    expect(xml).toContain(`<sps_hashcode>${hash}</sps_hashcode>`);
  });

  it('reads a reference response: 3DES card fields decrypted, the one-letter brand kept', async () => {
    const c = capture();
    c.answer(
      '<sps-api-response id="MG02-00104-101"><res_result>OK</res_result><res_pay_method_info><cc_number>PhrEPOftLZoyuDq3hv3o7A==</cc_number><cc_expiration>rEQ5ooA6ZD0=</cc_expiration><cardbrand_code>GouGQb/5eac=</cardbrand_code><resrv1></resrv1></res_pay_method_info><res_err_code></res_err_code></sps-api-response>',
    );
    const r = await createSbpsClient(cfg, clock, c.fetchImpl).referenceCard('tenpo-7-abc');
    expect(r.card).toEqual({ masked: '************1111', expiration: '203012', brand: 'V' });
  });

  it('an NG response carries its error code; an unreadable one is a protocol error', () => {
    const ng = parseApiResponse(
      iconv.encode(
        '<sps-api-response id="a"><res_result>NG</res_result><res_err_code>99996000</res_err_code><res_tracking_id>1</res_tracking_id></sps-api-response>',
        'Shift_JIS',
      ),
      false,
      KEYS,
    );
    expect(ng).toMatchObject({ result: 'NG', errCode: '99996000', trackingId: '1' });
    expect(() => parseApiResponse(Buffer.from('<html>502</html>'), false, KEYS)).toThrow();
  });

  it('classifies error codes: card types 20–36 decline, 21 and system errors are transient', () => {
    for (const c of ['10120000', '10122000', '10127000', '10128000', '10136000'])
      expect([c, isCardError(c)]).toEqual([c, true]);
    for (const c of ['10121000', '10137000', '10105202', '99995000', '99996000', '10107040'])
      expect([c, isCardError(c)]).toEqual([c, false]);
    expect(isTransientError('10121000')).toBe(true);
    expect(isTransientError('99990000')).toBe(true);
    expect(isTransientError('10122000')).toBe(false);
    expect(isTransientError('99996000')).toBe(false);
  });

  it('a 5xx, a network error or a time-out is SbpsUnavailable', async () => {
    const down = createSbpsClient(
      cfg,
      clock,
      (async () => new Response('', { status: 503 })) as unknown as typeof fetch,
    );
    await expect(down.removeCard('x')).rejects.toThrow(/HTTP 503/);
    const gone = createSbpsClient(cfg, clock, (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch);
    await expect(gone.removeCard('x')).rejects.toMatchObject({ name: 'Error' });
    await expect(gone.removeCard('x')).rejects.toThrow(/fetch failed/);
  });
});

/**
 * Recorded real SBPS exchanges (fixtures/sbps-exchanges/README.md: sbpayment.rb's VCR cassettes,
 * stbfep.sps-system.com, 2017; the A02-1 from its purchase_report_spec).
 */
const FIX = path.join(__dirname, '../../../../../fixtures/sbps-exchanges');
const recorded = (name: string) => fs.readFileSync(path.join(FIX, name));
/** The recording's merchant 30132/002 and its public test hash key (Basic auth of the cassettes). */
const RECORDED_HASH_KEY = '8435dbd48f2249807ec216c3d5ecab714264cc4a';

describe('SBPS codec against recorded real exchanges', () => {
  it('reads the recorded NG answer, which has no id, transaction id or process date', () => {
    const r = parseApiResponse(recorded('NG-ST01-00111.response.xml'), false, KEYS);
    expect(r).toMatchObject({
      id: '',
      result: 'NG',
      errCode: '10105202',
      spsTransactionId: '',
      trackingId: '',
      processDate: '',
    });
  });

  it.each([
    ['MG02-00131', {}],
    ['MG02-00132', {}],
    ['MG02-00104', { cc_number: '************4242', cc_expiration: '202001' }],
    ['MG02-00103', {}],
    ['ST01-00131', { cardbrand_code: 'M', recognized_no: '123456' }],
    ['ST01-00111', { cardbrand_code: 'V' }],
    ['ST02-00101', {}],
    ['ST02-00201', {}],
    ['MG01-00101', { commit_status: '1', payment_status: '1', cardbrand_code: 'V' }],
  ])('reads the recorded %s answer', (name, info) => {
    const r = parseApiResponse(recorded(`${name}.response.xml`), false, KEYS);
    expect(r.id).toBe(`${name}-101`);
    expect(r.result).toBe('OK');
    expect(r.errCode).toBe('');
    expect(r.spsTransactionId).toMatch(/^B30132002/);
    expect(r.processDate).toMatch(/^\d{14}$/);
    expect(r.payMethodInfo).toMatchObject(info);
  });

  it('reads the commit’s process date, which sales names', () => {
    expect(parseApiResponse(recorded('ST02-00101.response.xml'), false, KEYS).processDate).toBe(
      '20171127193712',
    );
  });

  it.each(['ST02-00101', 'ST02-00201', 'MG02-00103', 'MG02-00104', 'MG01-00101'])(
    'signs the recorded %s request as SBPS accepted it',
    (name) => {
      const xml = recorded(`${name}.request.xml`).toString('utf8');
      // Leaves in document order (these requests carry no M field and no ciphertext).
      const els: XmlElement[] = [];
      for (const m of xml.matchAll(/<([a-z_]+)>([^<]*)<\/\1>/g))
        if (m[1] !== 'sps_hashcode') els.push([m[1] as string, m[2] as string]);
      const sent = /<sps_hashcode>([0-9a-f]{40})<\/sps_hashcode>/.exec(xml)?.[1];
      expect(apiHash(els, RECORDED_HASH_KEY)).toBe(sent);
    },
  );

  it('decrypts MG01-00101’s commit_status and payment_status when encrypted_flg=1', async () => {
    const c = capture();
    const enc = (v: string) => desEncrypt(v, KEYS);
    c.answer(
      recorded('MG01-00101.response.xml')
        .toString('utf8')
        .replace(/^<\?xml[^>]*>/, '')
        .replace('<commit_status>1</commit_status>', `<commit_status>${enc('1')}</commit_status>`)
        .replace(
          '<payment_status>1</payment_status>',
          `<payment_status>${enc('2')}</payment_status>`,
        )
        .replace(
          '<cardbrand_code>V</cardbrand_code>',
          `<cardbrand_code>${enc('V')}</cardbrand_code>`,
        )
        .replace(
          '<cc_company_code>10035</cc_company_code>',
          `<cc_company_code>${enc('10035')}</cc_company_code>`,
        )
        .replace(
          '<recognized_no>123456</recognized_no>',
          `<recognized_no>${enc('123456')}</recognized_no>`,
        ),
    );
    const r = await createSbpsClient(cfg, clock, c.fetchImpl).inquire({
      spsTransactionId: 'B30132002ST010011110100361052482',
      trackingId: '00000616307348',
    });
    expect(r.payMethodInfo).toMatchObject({
      commit_status: '1',
      payment_status: '2',
      cardbrand_code: 'V',
    });
  });

  it('commits (ST02-00101), then sells naming the commit’s process date', async () => {
    const c = capture();
    const client = createSbpsClient(cfg, clock, c.fetchImpl);
    c.answer(
      recorded('ST02-00101.response.xml')
        .toString('utf8')
        .replace(/^<\?xml[^>]*>/, ''),
    );
    const t = { spsTransactionId: 'SPS0001', trackingId: '12345678901234' };
    const committed = await client.commit?.(t);
    expect(committed?.processDate).toBe('20171127193712');
    await client.sales({ ...t, amount: 6980, processingDatetime: committed?.processDate });
    const [commitXml, salesXml] = c.sent.map((x) => iconv.decode(x.body, 'Shift_JIS'));
    expect(commitXml).toContain('<sps-api-request id="ST02-00101-101">');
    expect(commitXml).toContain('<processing_datetime>20261126141500</processing_datetime>');
    expect(salesXml).toContain('<processing_datetime>20171127193712</processing_datetime>');
  });

  it('reads and verifies the recorded A02-1 notification (Shift_JIS form, upper-case hash)', () => {
    const f = parseSjisForm(recorded('A02-1.notification.form'));
    expect(f).toMatchObject({ item_name: '継続課金', res_result: 'OK', amount: '980' });
    expect(f.sps_hashcode).toMatch(/^[0-9A-F]{40}$/);
    expect(resultHashOk(f, '398a58952baf329cac5efbae97ea84ba17028d02')).toBe(true);
    expect(resultHashOk({ ...f, amount: '981' }, '398a58952baf329cac5efbae97ea84ba17028d02')).toBe(
      false,
    );
  });
});
