import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ja } from '@tenpo/domain';
import { ChannelError, type FailureKind } from '../channels/channel';
import { registerErrorHandler } from './error-handler';

/** ChannelErrors reach routes intact; the error handler is the one place they become HTTP. */
describe('error handler: channel failures', () => {
  it.each<[FailureKind, number, string]>([
    ['reauth', 409, ja.channelReauth('X')],
    ['rate_limited', 503, ja.channelQuota('X')],
    ['quota', 503, ja.channelQuota('X')],
    ['transient', 503, ja.channelRetry('X')],
    ['invalid', 502, ja.channelInvalid('X')],
    ['outcome_unknown', 504, ja.channelOutcomeUnknown('X')],
  ])('%s answers %i with the Japanese line, never the vendor text', async (kind, status, text) => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/', async () => {
      throw new ChannelError(kind, 'vendor says: secret detail', 1000, 400).from('twitter');
    });
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(status);
    const body = res.json() as { status_code: number; message: string; errors: object };
    expect(body).toMatchObject({ status_code: status, message: text });
    expect(res.body).not.toContain('secret detail');
    if (kind === 'reauth') expect(body.errors).toEqual({ publisher: [text] });
    await app.close();
  });
});
