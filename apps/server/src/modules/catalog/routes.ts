import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  catalogMessages,
  errorSchema,
  filtersFromQuery,
  gameIdParamsSchema,
  gameListAnswerSchema,
  gameListItemSchema,
  gameListQuerySchema,
  gameSchema,
  priceSeriesSchema,
  QUICK_SEARCH_LIMIT,
  quickSearchHitSchema,
  SEARCH_RESULTS_LIMIT,
  searchQuerySchema,
} from '@keystore/contract';
import { NO_AUTH } from '../../platform/openapi.ts';
import { AnswerCache } from '../../platform/answer-cache.ts';
import { coverSvg } from './cover-art.ts';
import type { CatalogService } from './service.ts';

/** What the catalogue's answers, kept ready with their compressed forms, may take of memory. */
const ANSWER_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * The catalogue's HTTP surface (SPEC §7, DESIGN §4). Its reads are the store's busiest calls and
 * repeat all the time (the first page, popular searches, a game everyone looks at): each answer is
 * kept, with its compressed forms, under the URL and the catalogue's version (platform/answer-cache.ts).
 */
export const catalogRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService }> = async (app, { catalog }) => {
  const answers = new AnswerCache(ANSWER_CACHE_BYTES);
  const keyOf = (request: FastifyRequest) => `${catalog.version} ${request.url}`;

  app.get(
    '/api/games',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'listGames',
        security: NO_AUTH,
        summary: 'Filtered, searched, sorted page of the catalogue with facet counts',
        querystring: gameListQuerySchema,
        response: { 200: gameListAnswerSchema, 400: errorSchema },
      },
    },
    async (request, reply) => {
      const { search, sort, page, pageSize, ...rest } = request.query;
      // Built from prepared JSON: each game's answer is serialised once and kept by the index.
      return answers.send(request, reply, keyOf(request), () => catalog.listJson({ search, sort, page, pageSize, filters: filtersFromQuery(rest) }));
    },
  );

  app.get(
    '/api/games/search',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'searchGames',
        security: NO_AUTH,
        summary: 'Up to 50 games, best match first',
        querystring: searchQuerySchema,
        response: { 200: z.array(gameListItemSchema), 400: errorSchema },
      },
    },
    async (request, reply) => answers.send(request, reply, keyOf(request), () => catalog.searchJson(request.query.query, SEARCH_RESULTS_LIMIT)),
  );

  app.get(
    '/api/games/quick-search',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'quickSearchGames',
        security: NO_AUTH,
        summary: 'Up to 8 typo-tolerant prefix hits for the header search',
        querystring: searchQuerySchema,
        response: { 200: z.array(quickSearchHitSchema), 400: errorSchema },
      },
    },
    async (request, reply) => answers.send(request, reply, keyOf(request), () => JSON.stringify(catalog.quickSearch(request.query.query, QUICK_SEARCH_LIMIT))),
  );

  app.get(
    '/api/games/:id',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'getGame',
        security: NO_AUTH,
        summary: 'One game with its description and stock',
        params: gameIdParamsSchema,
        response: { 200: gameSchema, 404: errorSchema },
      },
    },
    async (request, reply) => answers.send(request, reply, keyOf(request), () => catalog.gameJson(request.params.id)),
  );

  app.get(
    '/api/games/:id/prices',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'getGamePrices',
        security: NO_AUTH,
        summary: "A game's price over the last 90 days: each change, the last point its price now",
        params: gameIdParamsSchema,
        response: { 200: priceSeriesSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      void reply.header('Cache-Control', 'public, max-age=60');
      return catalog.priceSeries(request.params.id);
    },
  );

  app.get(
    '/media/covers/:file',
    { schema: { hide: true, params: z.object({ file: z.string().regex(/^[a-z0-9]+\.svg$/, catalogMessages.notFound) }) } },
    async (request, reply) => {
      const subject = catalog.coverSubject(request.params.file.slice(0, -'.svg'.length));
      if (!subject) return reply.code(404).send({ error: 'Not found' });
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('Cache-Control', 'public, max-age=86400')
        .send(coverSvg(subject));
    },
  );
};
