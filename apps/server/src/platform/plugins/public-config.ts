import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { publicConfigSchema } from '@keystore/contract';
import type { Config } from '../../config.ts';
import { NO_AUTH } from '../openapi.ts';

/** GET /api/config: what the web app needs to know of the server. */
export function registerPublicConfig(app: FastifyInstance, config: Config): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/config',
    { schema: { tags: ['operations'], operationId: 'getPublicConfig', summary: 'What the web app needs to know of the server', security: NO_AUTH, response: { 200: publicConfigSchema } } },
    async () => ({ analyticsScriptUrl: config.analyticsScriptUrl ?? null }),
  );
}
