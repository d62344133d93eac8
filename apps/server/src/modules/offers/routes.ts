// The offers' routes (decision 031): a seller's offers and keys (/api/seller/offers…), its webhook and
// reservations (declared stock, issue 24: register, rotate the secret, ping, every attempt listed so it
// can debug its integration without writing to support), and a game's offers for shoppers.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  gameOfferListSchema,
  reservationPageSchema,
  sellerPageQuerySchema,
  identityConfirmationSchema,
  webhookAnswerSchema,
  webhookPingSchema,
  webhookRequestSchema,
  webhookSecretSchema,
  idField,
  keyUploadAnswerSchema,
  keyUploadSchema,
  offerAnswerSchema,
  offerIdParamsSchema,
  offerKeyParamsSchema,
  offerListSchema,
  offerPatchSchema,
  offerRequestSchema,
  sellerApiHeadersSchema,
  sellerKeyListSchema,
  sellerMessages,
} from '@keystore/contract';
import { z } from 'zod';
import { perAddress, perUser } from '../../platform/limits.ts';
import { NO_AUTH } from '../../platform/openapi.ts';
import { confirmedIdentity, IDENTITY_GUESSES, SELLER_API, sellerGuards, type SellersService } from '../sellers/ports.ts';
import type { IdentityChecks } from '../security/ports.ts';
import type { OffersService } from './service.ts';

const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { sellerApiKey: [] }];
const tags = ['sellers'];
const denied = { 401: errorSchema, 403: errorSchema, 404: errorSchema };

export const offerRoutes: FastifyPluginAsyncZod<{ sellers: SellersService; offers: OffersService; identity: IdentityChecks }> = async (app, { sellers, offers, identity }) => {
  const { asSeller, asActiveSeller } = sellerGuards(app, sellers);
  const config = { limits: [perAddress(SELLER_API)] };
  const headers = sellerApiHeadersSchema;

  app.get(
    '/api/seller/offers',
    {
      onRequest: asSeller,
      config,
      schema: { operationId: 'listSellerOffers', tags, summary: "The seller's offers, newest first", security, headers, response: { 200: offerListSchema, ...denied } },
    },
    async (request) => offers.offers(request.seller),
  );
  app.post(
    '/api/seller/offers',
    {
      onRequest: asActiveSeller,
      config,
      schema: {
        operationId: 'createSellerOffer',
        tags,
        summary: 'Offers a game at a net price (one offer per game); it shows in the store once the seller is active and has keys',
        security,
        headers,
        body: offerRequestSchema,
        response: { 201: offerAnswerSchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request, reply) => reply.code(201).send({ offer: await offers.createOffer(request.seller, request.body) }),
  );
  app.patch(
    '/api/seller/offers/:id',
    {
      onRequest: asActiveSeller,
      config,
      schema: {
        operationId: 'updateSellerOffer',
        tags,
        summary: "Changes an offer's net price or pauses it",
        security,
        headers,
        params: offerIdParamsSchema,
        body: offerPatchSchema,
        response: { 200: offerAnswerSchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => ({ offer: await offers.patchOffer(request.seller, request.params.id, request.body) }),
  );

  // --- Keys ---
  app.post(
    '/api/seller/offers/:id/keys',
    {
      onRequest: asActiveSeller,
      config,
      bodyLimit: 1024 * 1024,
      schema: {
        operationId: 'uploadSellerKeys',
        tags,
        summary: 'Adds up to 1,000 keys to an offer; invalid and duplicate keys are counted and skipped',
        security,
        headers,
        params: offerIdParamsSchema,
        body: keyUploadSchema,
        response: { 200: keyUploadAnswerSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => offers.uploadKeys(request.seller, request.params.id, request.body.keys),
  );
  app.get(
    '/api/seller/offers/:id/keys',
    {
      onRequest: asSeller,
      config,
      schema: {
        operationId: 'listSellerKeys',
        tags,
        summary: "An offer's keys, masked, with their state",
        security,
        headers,
        params: offerIdParamsSchema,
        response: { 200: sellerKeyListSchema, ...denied },
      },
    },
    async (request) => offers.keys(request.seller, request.params.id),
  );
  app.delete(
    '/api/seller/offers/:id/keys/:keyId',
    {
      onRequest: asActiveSeller,
      config,
      schema: {
        operationId: 'deleteSellerKey',
        tags,
        summary: 'Deletes an available key (409 for a reserved or sold one)',
        security,
        headers,
        params: offerKeyParamsSchema,
        response: { 204: z.null(), 409: errorSchema, ...denied },
      },
    },
    async (request, reply) => {
      await offers.deleteKey(request.seller, request.params.id, request.params.keyId);
      return reply.code(204).send(null);
    },
  );


  // --- The store ---
  app.get(
    '/api/games/:id/offers',
    {
      schema: {
        operationId: 'listGameOffers',
        tags: ['catalog'],
        security: NO_AUTH,
        summary: "A game's offers that can be bought now, the house's included, best first",
        params: z.object({ id: idField(sellerMessages.gameNotFound) }),
        response: { 200: gameOfferListSchema, 404: errorSchema },
      },
    },
    async (request) => offers.offersOfGame(request.params.id),
  );

  // --- Declared stock: the webhook, and reservations with every call (issue 24) ---
  app.get(
    '/api/seller/webhook',
    {
      onRequest: asSeller,
      config,
      schema: { operationId: 'getSellerWebhook', tags, summary: "The seller's webhook (never its secret), or null", security, headers, response: { 200: webhookAnswerSchema.nullable(), ...denied } },
    },
    async (request) => offers.declared.webhook(request.seller),
  );

  const confirmed = { limits: [perAddress(SELLER_API), perUser(IDENTITY_GUESSES)] };
  app.put(
    '/api/seller/webhook',
    {
      onRequest: asActiveSeller,
      config: confirmed,
      schema: {
        operationId: 'setSellerWebhook',
        tags,
        summary:
          'Registers the endpoint the store calls for declared stock (signed in, the password and the authenticator code typed again); the signing secret is answered on the first registration only',
        security,
        headers,
        body: webhookRequestSchema,
        response: { 200: webhookAnswerSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => {
      const origin = await confirmedIdentity(identity, request, request.body);
      const answer = await offers.declared.setWebhook(request.seller, request.body.url);
      await identity.recordNow(origin.userId, 'webhook-changed', origin);
      return answer;
    },
  );

  app.post(
    '/api/seller/webhook/rotate-secret',
    {
      onRequest: asActiveSeller,
      config: confirmed,
      schema: {
        operationId: 'rotateSellerWebhookSecret',
        tags,
        summary: 'A new signing secret (signed in, the password and the authenticator code typed again): every call from now on is signed with it',
        security,
        headers,
        body: identityConfirmationSchema,
        response: { 200: webhookSecretSchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => {
      const origin = await confirmedIdentity(identity, request, request.body);
      const answer = await offers.declared.rotateSecret(request.seller);
      await identity.recordNow(origin.userId, 'webhook-secret-rotated', origin);
      return answer;
    },
  );

  app.post(
    '/api/seller/webhook/test',
    {
      onRequest: asActiveSeller,
      config,
      schema: { operationId: 'pingSellerWebhook', tags, summary: 'Sends a signed ping to the endpoint and answers what came back', security, headers, response: { 200: webhookPingSchema, 409: errorSchema, ...denied } },
    },
    async (request) => offers.declared.ping(request.seller),
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
    async (request) => offers.declared.reservations(request.seller, request.query.page),
  );
};
