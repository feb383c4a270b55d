// An OpenAI-compatible Chat Completions endpoint (POST {S}/llm/v1/chat/completions), deterministic:
// the same messages get the same answer. Shapes follow OpenAI's API reference and its OpenAPI
// document (fixtures/openai-chat/README.md cites them): a `chat.completion` object with
// `choices[0].message.content` and `usage`; errors as `{ error: { message, type, param, code } }`.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearer, bodyObject, ProviderError, sleep } from '../shared/http';
import type { Runtime } from '../shared/runtime';

/** The key the sandbox's model asks for (apps/sandbox/README.md). */
export const LLM_SANDBOX_KEY = 'tenpo-sandbox-secret';

/** Marks a review whose draft the sandbox's model writes with a forbidden claim (for the check). */
export const LLM_SUPERLATIVE_MARKER = 'sandbox:no1';

export const openAiError = (
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers: Record<string, string> = {},
) => new ProviderError(status, { error: { message, type, param: null, code } }, headers);

const invalidKey = () =>
  openAiError(
    401,
    'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
    'invalid_request_error',
    'invalid_api_key',
  );

const noKey = () =>
  openAiError(
    401,
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    'invalid_request_error',
    null,
  );

type Message = { role: string; content: string };

/** The band of the stars the prompt names (★1–5), if it names any. */
const starsOf = (text: string): number | null => {
  const m = /★\s?([1-5])/u.exec(text);
  return m ? Number(m[1]) : null;
};

/** The store the prompt names: a `店舗名:` line, else the first 「…」. */
const storeOf = (text: string): string | null => {
  const line = /店舗名\s?[:：]\s?(.+)/u.exec(text);
  if (line?.[1]) return line[1].trim();
  const quoted = /「([^」]{1,80})」/u.exec(text);
  return quoted?.[1]?.trim() ?? null;
};

const REPLIES = {
  low: [
    'ご不快な思いをおかけし、誠に申し訳ございません。いただいたご指摘をスタッフ一同で共有し、改善に取り組んでまいります。',
    'ご期待に沿えず、大変申し訳ございませんでした。ご意見を真摯に受け止め、同じことが起きないよう努めてまいります。',
  ],
  mid: [
    '率直なご感想をありがとうございます。至らなかった点を見直し、次の機会にはより快適にお過ごしいただけるよう努めます。',
    'ご意見をお寄せいただき、ありがとうございます。いただいた声をもとに、より良いサービスをご提供できるよう努めてまいります。',
  ],
  high: [
    '温かいお言葉をいただき、ありがとうございます。スタッフ一同大変うれしく思っております。またのお越しを心よりお待ちしております。',
    'うれしいご感想をありがとうございます。いただいたお言葉を励みに、これからも心を込めてお迎えいたします。',
  ],
} as const;

/** The reply the sandbox's model writes for these messages: by the stars, the store and a hash. */
export function sandboxReply(messages: readonly Message[]): string {
  const all = messages.map((m) => m.content).join('\n');
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content ?? all;
  const stars = starsOf(user) ?? starsOf(all) ?? 5;
  const band = stars <= 2 ? 'low' : stars === 3 ? 'mid' : 'high';
  const store = storeOf(user) ?? storeOf(all);
  const pick = createHash('sha256').update(all).digest()[0] ?? 0;
  const body = REPLIES[band][pick % REPLIES[band].length] ?? REPLIES[band][0];
  const opening = store ? `この度は${store}をご利用いただき、ありがとうございます。` : '';
  const claim = all.includes(LLM_SUPERLATIVE_MARKER) ? '当店は地域No.1の人気店です。' : '';
  return `${opening}${body}${claim}`;
}

/** A rough, deterministic token count: a token for every two characters. */
const tokens = (s: string) => Math.max(1, Math.ceil([...s].length / 2));

function parse(req: FastifyRequest): {
  model: string;
  messages: Message[];
  maxTokens: number | null;
} {
  const b = bodyObject(req);
  const bad = (message: string, param: string) =>
    new ProviderError(400, {
      error: { message, type: 'invalid_request_error', param, code: null },
    });
  if (typeof b.model !== 'string' || b.model.trim() === '')
    throw bad('you must provide a model parameter', 'model');
  if (!Array.isArray(b.messages) || b.messages.length === 0)
    throw bad(
      "Invalid 'messages': empty array. Expected an array with minimum length 1.",
      'messages',
    );
  const messages = b.messages.map((m, i): Message => {
    const o = (m ?? {}) as Record<string, unknown>;
    if (typeof o.role !== 'string' || typeof o.content !== 'string')
      throw bad(
        `Invalid value for 'messages[${i}]': a role and a string content are required.`,
        `messages[${i}]`,
      );
    return { role: o.role, content: o.content };
  });
  const max = b.max_tokens ?? b.max_completion_tokens;
  if (max !== undefined && (!Number.isInteger(max) || (max as number) < 1))
    throw bad("Invalid 'max_tokens': expected an integer of at least 1.", 'max_tokens');
  return { model: b.model, messages, maxTokens: (max as number | undefined) ?? null };
}

/** The model's faults, answered as OpenAI does (401, 429 with Retry-After, 5xx). */
async function applyFaults(req: FastifyRequest, rt: Runtime): Promise<void> {
  for (const f of rt.faults.take('llm', [], req)) {
    if (f.kind === 'slow') await sleep(f.delay_ms);
    else if (f.kind === 'expired_token') throw invalidKey();
    else if (f.kind === 'rate_limit')
      throw openAiError(
        429,
        'Rate limit reached for requests. Please try again later.',
        'requests',
        'rate_limit_exceeded',
        { 'retry-after': String(f.retry_after_seconds) },
      );
    else if (f.kind === 'server_error')
      throw openAiError(
        f.status,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
      );
  }
}

export function registerLlm(app: FastifyInstance, rt: Runtime): void {
  app.post('/llm/v1/chat/completions', async (req) => {
    await applyFaults(req, rt);
    const key = bearer(req);
    if (!key) throw noKey();
    if (key !== LLM_SANDBOX_KEY) throw invalidKey();
    const { model, messages, maxTokens } = parse(req);
    let content = sandboxReply(messages);
    let finish = 'stop';
    if (maxTokens !== null && tokens(content) > maxTokens) {
      content = [...content].slice(0, maxTokens * 2).join('');
      finish = 'length';
    }
    const prompt = tokens(messages.map((m) => m.content).join(''));
    const completion = tokens(content);
    const id = createHash('sha256').update(JSON.stringify(messages)).digest('base64url');
    return {
      id: `chatcmpl-${id.slice(0, 29)}`,
      object: 'chat.completion',
      created: Math.floor(rt.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
    };
  });
}
