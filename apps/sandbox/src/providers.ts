import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxOptions } from './index';
import { registerFaults } from './faults/faults.routes';
import { registerFacebook } from './facebook/facebook.routes';
import { registerGoogle } from './google/google.routes';
import { gError } from './google/google.errors';
import { graphError } from './facebook/facebook.errors';
import { problem } from './x/x.errors';
import { ProviderError } from './shared/http';
import { multipartBody, parseMultipart } from './shared/multipart';
import { createRuntime } from './shared/runtime';
import { registerSbps } from './sbps/sbps.routes';
import { openAiError, registerLlm } from './llm/llm.routes';
import { registerX } from './x/x.routes';

const MAX_UPLOAD = 200 * 1024 * 1024;

/** Renders an error that no handler shaped (bad JSON, body too large…) in the provider's shape. */
function unexpected(req: FastifyRequest, err: FastifyError): ProviderError {
  const status =
    err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  const where = req.routeOptions.url ?? req.url;
  const message = status >= 500 ? 'Internal error encountered.' : err.message;
  if (where.includes('/google/'))
    return gError(
      status,
      status === 400 ? `Invalid JSON payload received. ${err.message}` : message,
    );
  if (where.includes('/facebook/'))
    return graphError(
      status,
      status >= 500 ? 1 : 100,
      status >= 500 ? 'An unknown error has occurred.' : message,
      status >= 500 ? 'OAuthException' : 'OAuthException',
    );
  if (where.includes('/x/'))
    return problem(status, status >= 500 ? 'Internal Server Error' : 'Invalid Request', message);
  if (where.includes('/llm/'))
    return openAiError(
      status,
      message,
      status >= 500 ? 'server_error' : 'invalid_request_error',
      null,
    );
  return new ProviderError(status, { error: message });
}

/** Registers the provider emulators (Google, Facebook, Instagram, X, SBPS) and the fault switches. */
export async function registerProviders(app: FastifyInstance, opts: SandboxOptions): Promise<void> {
  const rt = createRuntime(opts.dataDir, opts.baseUrl);
  await app.register(async (scope) => {
    // Our own body parsers: JSON that tolerates an empty body (Google's clients POST `{}` or
    // nothing), multipart for uploads, raw bytes for media. Replacing the parent's parsers here
    // keeps the change inside the emulators' scope.
    for (const type of ['application/json', 'multipart/form-data'])
      if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 10 * 1024 * 1024 },
      (_req, body, done) => {
        const text = String(body).trim();
        if (text === '') return done(null, {});
        try {
          done(null, JSON.parse(text));
        } catch (e) {
          const err = new Error((e as Error).message) as FastifyError;
          err.statusCode = 400;
          done(err, undefined);
        }
      },
    );
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: MAX_UPLOAD },
      (req, body, done) => {
        done(
          null,
          multipartBody(parseMultipart(body as Buffer, String(req.headers['content-type'] ?? ''))),
        );
      },
    );
    scope.addContentTypeParser(
      /^(image|video|audio)\/|^application\/octet-stream/,
      { parseAs: 'buffer', bodyLimit: MAX_UPLOAD },
      (_req, body, done) => done(null, body),
    );

    scope.setErrorHandler((err: FastifyError, req, reply) => {
      const e = err instanceof ProviderError ? err : unexpected(req, err);
      if (!(err instanceof ProviderError) && e.status >= 500)
        req.log.error({ err }, 'sandbox emulator failed');
      reply.code(e.status).headers(e.headers);
      return reply.send(e.body);
    });

    // Counted on arrival: a call the client gave up on (a time-out) still counts.
    const mount = new URL(rt.baseUrl).pathname.replace(/\/+$/, '');
    scope.addHook('onRequest', async (req) => {
      const p = req.url.split('?')[0] ?? '';
      rt.calls.record(`${req.method} ${p.startsWith(mount) ? p.slice(mount.length) : p}`);
    });

    registerGoogle(scope, rt);
    registerFacebook(scope, rt);
    registerX(scope, rt);
    registerSbps(scope, rt);
    registerLlm(scope, rt);
    registerFaults(scope, rt);
  });
}
