import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyGoogle } from '../src/channels/google/google.errors';
import { googleFieldLabels } from '../src/channels/google/google.fields';
import { failureLines } from '../src/modules/posts/posts.present';

/** The recorded answers the sandbox's own test also reads (fixtures/google-errors, ADR 0061). */
const FIXTURES = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'google-errors');
const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as {
    status: number;
    body: unknown;
  };
const classify = (name: string) => {
  const f = fixture(name);
  return classifyGoogle(f.status, f.body, new Headers());
};

describe("Google's refusals name the field (fixtures/google-errors)", () => {
  it('reads a v4 ValidationError with a field: code, path and message', () => {
    const e = classify('v4-validation-address-required');
    expect(e.kind).toBe('invalid');
    expect(e.fields).toEqual([
      { field: 'address.postal_code', description: 'address.postal_code is required', code: 2 },
    ]);
    expect(googleFieldLabels(e.fields, 'listing')).toEqual(['郵便番号']);
  });

  it('reads a v4 ValidationError without a field and names it by its ErrorCode range', () => {
    const e = classify('v4-validation-photo-fetch');
    expect(e.kind).toBe('invalid');
    expect(e.fields).toEqual([{ field: '', description: 'Fetching image failed.', code: 1000 }]);
    expect(googleFieldLabels(e.fields, 'post')).toEqual(['写真']);
    // On /posts, the failed Google target says which field Google refused, in Japanese.
    expect(failureLines('google_my_business', e, 'publish')).toEqual([
      'Googleへの投稿に失敗しました。',
      'Googleがリクエストを受け付けませんでした。',
      'Googleが受け付けなかった項目: 写真',
    ]);
  });

  it('reads v1 BadRequest field violations', () => {
    const e = classify('v1-bad-request-read-mask');
    expect(e.fields).toEqual([{ field: 'read_mask', description: 'Field is required' }]);
  });

  it('keeps the quota answer a wait, with RetryInfo and no fields', () => {
    const e = classify('v1-quota-error-info');
    expect(e.kind).toBe('rate_limited');
    expect(e.retryAfterMs).toBe(42_000);
    expect(e.fields).toEqual([]);
  });

  it('reads a v1 ErrorInfo whose metadata names the field (reason kept)', () => {
    const e = classifyGoogle(
      400,
      {
        error: {
          code: 400,
          message: 'Request contains an invalid argument.',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'INVALID_PHONE_NUMBER',
              domain: 'mybusinessbusinessinformation.googleapis.com',
              metadata: { field: 'phone_numbers.primary_phone', value: '03' },
            },
          ],
        },
      },
      new Headers(),
    );
    expect(e.fields).toEqual([
      {
        field: 'phone_numbers.primary_phone',
        description: 'INVALID_PHONE_NUMBER',
        reason: 'INVALID_PHONE_NUMBER',
        value: '03',
      },
    ]);
    expect(googleFieldLabels(e.fields, 'listing')).toEqual(['電話番号']);
  });

  it("names post fields by the post form's names", () => {
    expect(
      googleFieldLabels(
        [
          { field: 'summary', description: '' },
          { field: 'call_to_action.url', description: '' },
          { field: 'media[0].source_url', description: '', code: 1000 },
          { field: 'offer.coupon_code', description: '' },
        ],
        'post',
      ),
    ).toEqual(['投稿内容', 'ボタンのリンク', '写真・動画', 'クーポンコード']);
  });
});
