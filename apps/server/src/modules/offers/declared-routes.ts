// A declared-stock seller's routes (issue 24): its webhook (register, rotate the secret, ping) and its
// reservations with every attempt, so it can debug its integration without writing to support.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, reservationPageSchema, sellerApiHeadersSchema, sellerPageQuerySchema, webhookAnswerSchema, webhookPingSchema, webhookRequestSchema, webhookSecretSchema } from '@keystore/contract';
import { perAddress } from '../../platform/limits.ts';
import { SELLER_API, sellerGuards, type SellersService } from '../sellers/ports.ts';
import type { Accounts } from '../users/ports.ts';
import type { SellerDelivery } from './declared.ts';

const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { sellerApiKey: [] }];
const tags = ['sellers'];
const denied = { 401: errorSchema, 403: errorSchema, 404: errorSchema };

export const sellerDeliveryRoutes: FastifyPluginAsyncZod<{ sellers: SellersService; sellerDelivery: SellerDelivery; accounts: Accounts }> = async (app, { sellers, sellerDelivery }) => {
  const { asSeller, asActiveSeller } = sellerGuards(app, sellers);
  const config = { limits: [perAddress(SELLER_API)] };
  const headers = sellerApiHeadersSchema;

  app.get(
    '/api/seller/webhook',
    {
      onRequest: asSeller,
      config,
      schema: { operationId: 'getSellerWebhook', tags, summary: "The seller's webhook (never its secret), or null", security, headers, response: { 200: webhookAnswerSchema.nullable(), ...denied } },
    },
    async (request) => sellerDelivery.webhook(request.seller),
  );

  app.put(
    '/api/seller/webhook',
    {
      onRequest: asActiveSeller,
      config,
      schema: {
        operationId: 'setSellerWebhook',
        tags,
        summary: 'Registers the endpoint the store calls for declared stock; the signing secret is answered on the first registration only',
        security,
        headers,
        body: webhookRequestSchema,
        response: { 200: webhookAnswerSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => sellerDelivery.setWebhook(request.seller, request.body.url),
  );

  app.post(
    '/api/seller/webhook/rotate-secret',
    {
      onRequest: asActiveSeller,
      config,
      schema: { operationId: 'rotateSellerWebhookSecret', tags, summary: 'A new signing secret: every call from now on is signed with it', security, headers, response: { 200: webhookSecretSchema, 409: errorSchema, ...denied } },
    },
    async (request) => sellerDelivery.rotateSecret(request.seller),
  );

  app.post(
    '/api/seller/webhook/test',
    {
      onRequest: asActiveSeller,
      config,
      schema: { operationId: 'pingSellerWebhook', tags, summary: 'Sends a signed ping to the endpoint and answers what came back', security, headers, response: { 200: webhookPingSchema, 409: errorSchema, ...denied } },
    },
    async (request) => sellerDelivery.ping(request.seller),
  );

  app.get(
    '/api/seller/reservations',
    {
      onRequest: asSeller,
      config,
      schema: {
        operationId: 'listSellerReservations',
        tags,
        summary: "The seller's reservations, newest first, each with its moves and every call (time, type, HTTP status or error, duration)",
        security,
        headers,
        querystring: sellerPageQuerySchema,
        response: { 200: reservationPageSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => sellerDelivery.reservations(request.seller, request.query.page),
  );
};
