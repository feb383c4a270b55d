import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSandbox } from '../shared/testing';
import { LLM_SANDBOX_KEY, LLM_SUPERLATIVE_MARKER, sandboxReply } from './llm.routes';

const URL = '/sandbox/llm/v1/chat/completions';
const FIXTURES = path.resolve(import.meta.dirname, '../../../../fixtures/openai-chat');
const fixture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

let app: FastifyInstance;
beforeEach(async () => {
  ({ app } = await buildSandbox());
});
afterEach(async () => {
  await app.close();
});

const ask = (payload: unknown, key: string | null = LLM_SANDBOX_KEY) =>
  app.inject({
    method: 'POST',
    url: URL,
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    payload: JSON.stringify(payload),
  });

const prompt = (stars: number, store = 'カフェ テンポ 渋谷店', text = '美味しかったです') => ({
  model: 'tenpo-sandbox-chat',
  temperature: 0.7,
  max_tokens: 600,
  messages: [
    { role: 'system', content: `あなたは「${store}」の担当者です。` },
    {
      role: 'user',
      content: `店舗名: ${store}\n評価: ★${stars}（5段階）\n口コミ本文:\n"""\n${text}\n"""`,
    },
  ],
});

/** Every key of an object, nested, as paths (arrays by their first item). */
const keysOf = (o: unknown, at = ''): string[] => {
  if (Array.isArray(o)) return o.length ? keysOf(o[0], `${at}[]`) : [`${at}[]`];
  if (o && typeof o === 'object')
    return Object.entries(o).flatMap(([k, v]) =>
      k === '_source' ? [] : [`${at}.${k}`, ...keysOf(v, `${at}.${k}`)],
    );
  return [];
};

describe('POST {S}/llm/v1/chat/completions', () => {
  it('answers a chat.completion with the keys of OpenAI’s own example (fixtures/openai-chat)', async () => {
    const res = await ask(prompt(5));
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, unknown>;
    expect(keysOf(body).sort()).toEqual(keysOf(fixture('chat-completion.json')).sort());
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'tenpo-sandbox-chat',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }],
    });
    const usage = body.usage as Record<string, number>;
    expect(usage.total_tokens).toBe((usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0));
    expect(String(body.id)).toMatch(/^chatcmpl-/);
  });

  it('takes OpenAI’s example request as it is', async () => {
    const { _source, ...request } = fixture('chat-completion-request.json');
    expect(_source).toBeTruthy();
    expect((await ask(request)).statusCode).toBe(200);
  });

  it('writes a Japanese reply from the stars and the store, the same one for the same prompt', async () => {
    const content = async (p: unknown) =>
      ((await ask(p)).json() as { choices: { message: { content: string } }[] }).choices[0]?.message
        .content;
    const high = await content(prompt(5));
    expect(high).toContain('カフェ テンポ 渋谷店');
    expect(high).toMatch(/ありがとうございます/u);
    expect(await content(prompt(5))).toBe(high);
    const low = await content(prompt(1));
    expect(low).toMatch(/申し訳ございません/u);
    expect(await content(prompt(3, '岡田整骨院 下北沢'))).toContain('岡田整骨院 下北沢');
    expect(await content(prompt(4, 'A', `${LLM_SUPERLATIVE_MARKER} よかった`))).toContain('No.1');
  });

  it('sandboxReply picks the band from the stars in the prompt', () => {
    const of = (stars: number) =>
      sandboxReply([{ role: 'user', content: `店舗名: 店\n評価: ★${stars}（5段階）` }]);
    expect(of(1)).toMatch(/申し訳/u);
    expect(of(2)).toMatch(/申し訳/u);
    expect(of(3)).toMatch(/ご意見|ご感想/u);
    expect(of(5)).toMatch(/ありがとうございます/u);
  });

  it('asks for the Bearer key, as OpenAI does (401 with its error object)', async () => {
    const none = await ask(prompt(5), null);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({
      error: { type: 'invalid_request_error', param: null, code: null },
    });
    const wrong = await ask(prompt(5), 'sk-wrong');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: { code: 'invalid_api_key' } });
  });

  it('refuses a request without a model or messages (400 invalid_request_error)', async () => {
    const noModel = await ask({ messages: [{ role: 'user', content: 'x' }] });
    expect(noModel.statusCode).toBe(400);
    expect(noModel.json()).toMatchObject({
      error: { type: 'invalid_request_error', param: 'model' },
    });
    const noMessages = await ask({ model: 'm', messages: [] });
    expect(noMessages.statusCode).toBe(400);
    const bad = await app.inject({
      method: 'POST',
      url: URL,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${LLM_SANDBOX_KEY}` },
      payload: '{not json',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('cuts the answer at max_tokens (finish_reason length)', async () => {
    const res = await ask({ ...prompt(5), max_tokens: 3 });
    const body = res.json() as {
      choices: { finish_reason: string; message: { content: string } }[];
    };
    expect(body.choices[0]?.finish_reason).toBe('length');
    expect([...(body.choices[0]?.message.content ?? '')].length).toBeLessThanOrEqual(6);
  });
});

describe('the fault switches on the model (provider llm)', () => {
  const fault = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/sandbox/faults', payload: { provider: 'llm', ...body } });

  it.each([
    [{ kind: 'rate_limit', retry_after_seconds: 7 }, 429, 'rate_limit_exceeded'],
    [{ kind: 'server_error', status: 503 }, 503, null],
    [{ kind: 'server_error', status: 500 }, 500, null],
    [{ kind: 'expired_token' }, 401, 'invalid_api_key'],
  ] as const)('%o answers %i', async (f, status, code) => {
    expect((await fault(f)).statusCode).toBe(201);
    const res = await ask(prompt(5));
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ error: { code } });
    if (status === 429) expect(res.headers['retry-after']).toBe('7');
    // The fault was for one call: the next one is answered.
    expect((await ask(prompt(5))).statusCode).toBe(200);
  });

  it('a Google fault does not touch the model', async () => {
    await fault({ provider: 'google', kind: 'server_error' });
    expect((await ask(prompt(5))).statusCode).toBe(200);
  });
});
