import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from '../modules/auth/auth.service';

/** The Fastify instance typed with the zod provider, as every module receives it. */
export type Api = ReturnType<FastifyInstance['withTypeProvider']> & FastifyInstance;

export const withZod = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

export const metaOf = (request: FastifyRequest): RequestMeta => ({
  userAgent: request.headers['user-agent'] ?? null,
  ip: request.ip,
});

export const done = (message: string) => ({ status_code: 200, message });
export const okData = <T>(data: T, message?: string) =>
  message === undefined ? { status_code: 200, data } : { status_code: 200, message, data };
