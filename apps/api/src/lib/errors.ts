import { ja } from '@tenpo/domain';

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

export const unauthenticated = (message: string = ja.unauthenticated): AppError =>
  new AppError(401, 'unauthenticated', message);

export const forbidden = (): AppError => new AppError(403, 'forbidden', ja.forbidden);

/** Unknown, and not yours, look the same (DESIGN §4). */
export const notFound = (): AppError => new AppError(404, 'not_found', ja.notFound);
