// The web app's error boundaries report a page that failed to render here, so a broken page shows up
// in the server's log instead of only in one visitor's console. Anyone may report (the page may
// have failed before sign-in), so reports are limited per address and logged, never stored.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientErrorReportSchema, errorSchema } from '@keystore/contract';
import { perAddress, type LimitRule } from './limits.ts';
import { NO_AUTH } from './openapi.ts';

const REPORTS_PER_ADDRESS: LimitRule = { name: 'client-errors-ip', limit: 30, windowSeconds: 10 * 60 };

export const clientErrorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/client-errors',
    {
      config: { limits: [perAddress(REPORTS_PER_ADDRESS)] },
      bodyLimit: 16 * 1024,
      schema: {
        tags: ['operations'],
        operationId: 'reportClientError',
        security: NO_AUTH,
        summary: 'Reports a page of the web app that failed to render (logged as a warning)',
        body: clientErrorReportSchema,
        response: { 204: z.null(), 400: errorSchema, 429: errorSchema },
      },
    },
    async (request, reply) => {
      const { message, stack, path } = request.body;
      request.log.warn({ clientError: { message, stack, path, userAgent: request.headers['user-agent'] } }, 'a page of the web app failed');
      return reply.code(204).send(null);
    },
  );
};
