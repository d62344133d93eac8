import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, gameIdParamsSchema, gameListItemSchema } from '@keystore/contract';
import { NO_AUTH } from '../../platform/openapi.ts';
import type { RelatedGames } from './service.ts';

/** GET /api/games/{id}/related (issue 31). */
export const relatedRoutes: FastifyPluginAsyncZod<{ related: RelatedGames }> = async (app, { related }) => {
  app.get(
    '/api/games/:id/related',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'getRelatedGames',
        summary: 'Up to 8 games for "You may also like": bought together with this one, filled up with its genre and platform; in stock, never the game itself',
        security: NO_AUTH,
        params: gameIdParamsSchema,
        response: { 200: z.array(gameListItemSchema), 404: errorSchema },
      },
    },
    async (request, reply) => {
      void reply.header('Cache-Control', 'public, max-age=60');
      return related.of(request.params.id);
    },
  );
};
