import { reviewTemplateJa } from '@tenpo/domain';
import type { LlmConfig } from '../config';
import { meteredFetch } from '../channels/http';
import { AppError } from '../lib/errors';
import type { ChatMessage } from './reply-prompt';

/**
 * An OpenAI-compatible Chat Completions client (ADR 0091; fixtures/openai-chat): one POST to
 * `{baseUrl}/chat/completions` with the model, the messages, the temperature and `max_tokens`,
 * reading `choices[0].message.content`. Failures become a Japanese AppError: the key is never
 * logged, nor the prompt (it holds the review).
 */
export type LlmClient = {
  readonly model: string;
  complete(
    messages: ChatMessage[],
    opts?: { temperature?: number; maxTokens?: number },
  ): Promise<{ content: string; model: string }>;
};

type Log = { warn: (obj: object, msg: string) => void };

/** The part of a chat.completion object we read. */
type ChatCompletion = {
  model?: unknown;
  choices?: { message?: { content?: unknown } }[];
};

const failure = (status: number, code: string, message: string) =>
  new AppError(status, code, message);

/** A refused or failed call as the error the user sees (502: the model's service said no). */
export function llmErrorOf(status: number): AppError {
  if (status === 401 || status === 403)
    return failure(502, 'llm_refused', reviewTemplateJa.llmRefused);
  if (status === 429) return failure(503, 'llm_busy', reviewTemplateJa.llmBusy);
  if (status >= 500) return failure(503, 'llm_unavailable', reviewTemplateJa.llmFailed);
  return failure(502, 'llm_failed', reviewTemplateJa.llmFailed);
}

export function createLlmClient(
  config: LlmConfig,
  deps: { fetch?: typeof fetch; log?: Log } = {},
): LlmClient {
  const doFetch = meteredFetch('llm', deps.fetch ?? fetch);
  const url = `${config.baseUrl}/chat/completions`;
  return {
    model: config.model,
    async complete(messages, opts = {}) {
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: config.model,
            messages,
            temperature: opts.temperature ?? 0.7,
            max_tokens: opts.maxTokens ?? 600,
          }),
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      } catch (err) {
        const name = (err as Error).name;
        deps.log?.warn(
          { reason: name === 'TimeoutError' ? 'timeout' : 'network', host: new URL(url).host },
          'llm call failed',
        );
        throw failure(503, 'llm_unavailable', reviewTemplateJa.llmFailed);
      }
      const body = (await res.json().catch(() => null)) as ChatCompletion | null;
      if (!res.ok) {
        // The provider's own error type and code (never the request's headers or prompt).
        const e = (body as { error?: { type?: unknown; code?: unknown } } | null)?.error;
        deps.log?.warn(
          { status: res.status, type: e?.type ?? null, code: e?.code ?? null },
          'llm call refused',
        );
        throw llmErrorOf(res.status);
      }
      const content = body?.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || content.trim() === '')
        throw failure(502, 'llm_empty', reviewTemplateJa.llmEmpty);
      return {
        content: content.trim(),
        model: typeof body?.model === 'string' && body.model !== '' ? body.model : config.model,
      };
    },
  };
}
