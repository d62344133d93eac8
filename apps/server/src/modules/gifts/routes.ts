// A gift's page for its recipient (issue 29): GET /api/gifts/{id} and its keys, opened by the gift's signed link.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, giftIdParamsSchema, giftKeysQuerySchema, giftSchema, giftTokenQuerySchema, orderKeysSchema } from '@keystore/contract';
import { clientIp } from '../../platform/client-ip.ts';
import { perAddress, type LimitRule } from '../../platform/limits.ts';
import type { GiftsService } from './service.ts';

/** Guessing at gift links costs as guessing at order links does. */
const GIFT_LINK_PER_IP: LimitRule = { name: 'gift-link-ip', limit: 300, windowSeconds: 15 * 60 };
const byLink: Array<Record<string, string[]>> = [{}];

export const giftRoutes: FastifyPluginAsyncZod<{ gifts: GiftsService }> = async (app, { gifts }) => {
  app.get(
    '/api/gifts/:id',
    {
      config: { limits: [perAddress(GIFT_LINK_PER_IP)] },
      schema: {
        operationId: 'getGift',
        tags: ['gifts'],
        summary: "A gift as its recipient sees it, by the gift's link: the games, the sender's message and its keys (not revealed); never the order or its price",
        security: byLink,
        params: giftIdParamsSchema,
        querystring: giftTokenQuerySchema,
        response: { 200: giftSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => gifts.view(request.params.id, request.query.token),
  );

  app.get(
    '/api/gifts/:id/keys',
    {
      config: { limits: [perAddress(GIFT_LINK_PER_IP)] },
      schema: {
        operationId: 'revealGiftKeys',
        tags: ['gifts'],
        summary: "Reveals a gift's keys, or the one `keyId` names, to the holder of the gift's link (each reveal recorded)",
        security: byLink,
        params: giftIdParamsSchema,
        querystring: giftKeysQuerySchema,
        response: { 200: orderKeysSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { keys: await gifts.reveal(request.params.id, request.query.token, request.query.keyId, clientIp(request)) };
    },
  );
};
