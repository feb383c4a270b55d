import type { FastifyRequest } from 'fastify';

/** What a redacted query value reads as in the logs. */
export const REDACTED = '[redacted]';

/**
 * Query parameters whose values are secrets or personal data (ADR 0065, ASVS 5.0 V16.2.5):
 * mailed tokens (`token`), signed media URLs (`signature`), OAuth callbacks (`code`, `state`),
 * and e-mail addresses. Names are matched loosely (`access_token`, `oauth_state`,
 * `new_email`…); a value with an `@` is taken for an address whatever its name.
 */
const SECRET_NAME = /token|signature|code|state|e-?mail|password|secret/i;

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** The URL with the values of secret query parameters replaced; the path is kept as it is. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    if (eq < 0) return part;
    const name = decode(part.slice(0, eq));
    const value = decode(part.slice(eq + 1));
    return SECRET_NAME.test(name) || value.includes('@')
      ? `${part.slice(0, eq)}=${REDACTED}`
      : part;
  });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/**
 * Fastify's request serializer with the URL redacted: every "incoming request" and "request
 * completed" line, and every line of a request's child logger that carries `req`.
 */
export const redactedRequestSerializer = (req: FastifyRequest) => ({
  method: req.method,
  url: redactUrl(req.url),
  version: [req.headers['accept-version']].flat()[0],
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

/** The logger options of the app: the level, and the serializer above. */
export const loggerOptions = (level: string) => ({
  level,
  serializers: { req: redactedRequestSerializer },
});
