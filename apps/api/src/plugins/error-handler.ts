import http from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { ja, publisherByKey } from '@tenpo/domain';
import { ChannelError } from '../channels/channel';
import { AppError, type FieldErrors } from '../lib/errors';

/** `/email` → `email`, `/stores/0/name` → `stores.0.name`, root → `_`. */
const fieldOf = (instancePath: string, params: unknown): string => {
  const path = instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (path) return path;
  const missing = (params as { missingProperty?: string } | undefined)?.missingProperty;
  return missing ?? '_';
};

const envelope = (statusCode: number, message: string, errors: FieldErrors = {}) => ({
  status_code: statusCode,
  message,
  errors,
});

/**
 * A channel failure's answer, by its class (never the vendor's text): the one place where
 * ChannelErrors become HTTP (ADR 0022).
 */
export function channelAppError(err: ChannelError): AppError {
  const label = (err.publisher && publisherByKey(err.publisher)?.label) || 'provider';
  switch (err.kind) {
    case 'reauth':
      return new AppError(409, 'channel_reauth', ja.channelReauth(label), {
        publisher: [ja.channelReauth(label)],
      });
    case 'quota':
    case 'rate_limited':
      return new AppError(503, 'channel_quota', ja.channelQuota(label));
    case 'transient':
      return new AppError(503, 'channel_unavailable', ja.channelRetry(label));
    case 'outcome_unknown':
      return new AppError(504, 'channel_outcome_unknown', ja.channelOutcomeUnknown(label));
    case 'blocked':
      return new AppError(502, 'channel_blocked', ja.channelBlocked(label));
    default:
      return new AppError(502, 'channel_invalid', ja.channelInvalid(label));
  }
}

/** The Japanese line of a framework's 4xx (issue 22): one per status, the generic one else. */
export const clientErrorLine = (status: number): string => {
  switch (status) {
    case 400:
      return ja.badRequest;
    case 404:
      return ja.notFound;
    case 405:
      return ja.methodNotAllowed;
    case 408:
      return ja.requestTimeout;
    case 413:
      return ja.fileTooLarge;
    case 414:
      return ja.uriTooLong;
    case 415:
      return ja.unsupportedMediaType;
    case 429:
      return ja.tooManyRequests;
    case 431:
      return ja.headersTooLarge;
    default:
      return ja.serverError;
  }
};

/**
 * What Node's HTTP parser refuses before Fastify sees a request (a broken request line, headers
 * too large, a time-out), answered in the envelope too rather than Fastify's English JSON.
 */
export function clientErrorResponse(err: { code?: string }): string {
  const status =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 408
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? 431
        : err.code === 'HPE_URI_TOO_LONG'
          ? 414
          : 400;
  const body = JSON.stringify(envelope(status, clientErrorLine(status)));
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * The router's own refusals, which never reach the error handler (Fastify's `frameworkErrors`):
 * a path that is not valid percent-encoded UTF-8 (400) and a path parameter past
 * `maxParamLength` (414). They leave in the envelope too: the fuzz of issue 22 found them bare.
 */
export const frameworkErrors = (
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void => {
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
  void reply.code(status).send(envelope(status, clientErrorLine(status)));
};

/**
 * The one error handler: every failure leaves as the spec's envelope
 * `{ status_code, message, errors: { field: [messages] } }` with Japanese text.
 * 5xx details are logged with the request id and never sent.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError | AppError | Error, request, reply) => {
    if (raw instanceof ChannelError)
      request.log.warn(
        { publisher: raw.publisher, kind: raw.kind, detail: raw.message },
        'channel failure',
      );
    const error = raw instanceof ChannelError ? channelAppError(raw) : raw;
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'application error');
      return reply
        .code(error.statusCode)
        .send(envelope(error.statusCode, error.message, error.errors));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const v of error.validation) {
        const field = fieldOf(v.instancePath, v.params);
        (errors[field] ??= []).push(v.message ?? ja.serverError);
      }
      const first = Object.values(errors).flat()[0] ?? ja.serverError;
      return reply.code(422).send(envelope(422, first, errors));
    }
    if (isResponseSerializationError(error)) {
      request.log.error(
        { err: error, issues: error.cause.issues },
        'response does not match its schema',
      );
      return reply.code(500).send(envelope(500, ja.serverError));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 429) return reply.code(429).send(envelope(429, ja.tooManyRequests));
    if (status === 413 || (error as FastifyError).code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.code(413).send(envelope(413, ja.fileTooLarge));
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type and the like (Fastify's FST_ERR_*): a client error,
      // said plainly in the envelope with its own line (issue 22).
      return reply.code(status).send(envelope(status, clientErrorLine(status)));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(envelope(500, ja.serverError));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(envelope(404, ja.notFound));
  });
}
