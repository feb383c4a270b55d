import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_KEY_HEADER } from './api-key';

/** OpenAPI generated from the zod schemas of the routes, browsable at /api/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Tenpo API',
        version: '0.1.0',
        description:
          'Every call carries the X-Api-Key header and, once logged in, `Authorization: Bearer <token>`. Success: `{ status_code, message?, data }`; errors: `{ status_code, message, errors: { field: [messages] } }`.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ apiKey: [], bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}
