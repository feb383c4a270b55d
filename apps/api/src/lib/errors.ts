import { ja } from '@tenpo/domain';
import type { z } from 'zod';

export type FieldErrors = Record<string, string[]>;

/**
 * The one application error: a code, an HTTP status, a message and per-field messages.
 * The error handler turns it into the spec's envelope (DESIGN §3).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly errors: FieldErrors = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationError = (errors: FieldErrors, message?: string): AppError =>
  new AppError(
    422,
    'validation_failed',
    message ?? Object.values(errors).flat()[0] ?? ja.serverError,
    errors,
  );

/**
 * Zod issues as the envelope's `errors` map, for a multipart form judged in the handler (JSON
 * bodies are judged by the route schema, in the error handler): a form's fields are flat, so an
 * issue inside a field's value (one item of a list) is the field's; `_` is the form as a whole.
 * Each message once.
 */
export const fieldErrorsOf = (error: z.ZodError): FieldErrors => {
  const out: FieldErrors = {};
  for (const i of error.issues) {
    const list = (out[String(i.path[0] ?? '_')] ??= []);
    if (!list.includes(i.message)) list.push(i.message);
  }
  return out;
};

export const unauthenticated = (message: string = ja.unauthenticated): AppError =>
  new AppError(401, 'unauthenticated', message);

export const forbidden = (): AppError => new AppError(403, 'forbidden', ja.forbidden);

/** Unknown, and not yours, look the same (DESIGN §4). */
export const notFound = (): AppError => new AppError(404, 'not_found', ja.notFound);
