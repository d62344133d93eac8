// Claims' routes (issue 24): the buyer reports a key and follows its claims; the seller replaces or
// rejects; the owner lists and decides them in the back office (audited).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountMessages,
  adminClaimsQuerySchema,
  claimAnswerSchema,
  claimDecisionSchema,
  claimIdParamsSchema,
  claimListSchema,
  claimRejectSchema,
  claimRequestSchema,
  errorSchema,
  giftIdParamsSchema,
  giftTokenQuerySchema,
  orderIdParamsSchema,
  orderLinkQuerySchema,
  orderTokenQuerySchema,
  purchaseIdParamsSchema,
  sellerApiHeadersSchema,
} from '@keystore/contract';
import { Unauthorized } from '../../platform/errors.ts';
import { perAddress, type LimitRule } from '../../platform/limits.ts';
import { SELLER_API, sellerGuards, type SellersService } from '../sellers/ports.ts';
import type { UsersService } from '../users/ports.ts';
import { accessOf } from '../orders/ports.ts';
import type { ClaimsService } from './service.ts';

const bearer = [{ bearerAuth: [] }];
const sellerSecurity: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { sellerApiKey: [] }];
const denied = { 401: errorSchema, 403: errorSchema, 404: errorSchema };
/** Claims a buyer may open from one address in an hour. */
const CLAIM: LimitRule = { name: 'claim-open', limit: 20, windowSeconds: 3600 };
/** An order's claims read by its link, from one address in 15 minutes. */
const CLAIM_READS: LimitRule = { name: 'order-claims', limit: 300, windowSeconds: 15 * 60 };
/** A buyer reports signed in, or a guest with its order's link (issue 29). */
const bearerOrLink: Array<Record<string, string[]>> = [{ bearerAuth: [] }, {}];

export const claimRoutes: FastifyPluginAsyncZod<{ claims: ClaimsService; sellers: SellersService; users: UsersService }> = async (app, { claims, sellers, users }) => {
  const { asSeller, asActiveSeller } = sellerGuards(app, sellers);
  const sellerConfig = { limits: [perAddress(SELLER_API)] };

  app.post(
    '/api/purchases/:id/claim',
    {
      config: { limits: [perAddress(CLAIM)] },
      schema: {
        operationId: 'claimPurchase',
        tags: ['library'],
        summary: 'Reports a key that does not work, within 30 days of delivery and once it was revealed; one open claim per key',
        description: "A guest reports with the link of the key's order, a gift's recipient with the gift's link: `?token=`.",
        security: bearerOrLink,
        params: purchaseIdParamsSchema,
        querystring: orderTokenQuerySchema,
        body: claimRequestSchema,
        response: { 201: claimAnswerSchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request, reply) => {
      const access = await accessOf(app, request, request.query.token);
      const claimant = access.token !== undefined ? { token: access.token } : { userId: access.userId! };
      return reply.code(201).send({ claim: await claims.open(claimant, request.params.id, request.body) });
    },
  );

  app.get(
    '/api/orders/:id/claims',
    {
      config: { limits: [perAddress(CLAIM_READS)] },
      schema: {
        operationId: 'listOrderClaims',
        tags: ['orders'],
        summary: "An order's claims, for whoever holds its link (a guest follows its claims on the order page)",
        security: [{}],
        params: orderIdParamsSchema,
        querystring: orderLinkQuerySchema,
        response: { 200: claimListSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => claims.ofOrder(request.params.id, request.query.token),
  );

  app.get(
    '/api/gifts/:id/claims',
    {
      config: { limits: [perAddress(CLAIM_READS)] },
      schema: {
        operationId: 'listGiftClaims',
        tags: ['gifts'],
        summary: "A gift's claims, for whoever holds the gift's link (its recipient follows them on the gift's page)",
        security: [{}],
        params: giftIdParamsSchema,
        querystring: giftTokenQuerySchema,
        response: { 200: claimListSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => claims.ofGift(request.params.id, request.query.token),
  );

  app.get(
    '/api/claims',
    {
      onRequest: app.authenticate,
      schema: { operationId: 'listClaims', tags: ['library'], summary: "The caller's claims, newest first, with their state", security: bearer, response: { 200: claimListSchema, 401: errorSchema } },
    },
    async (request) => claims.ofUser(request.account.userId),
  );

  app.get(
    '/api/seller/claims',
    {
      onRequest: asSeller,
      config: sellerConfig,
      schema: { operationId: 'listSellerClaims', tags: ['sellers'], summary: "Claims on the seller's keys (the key masked, never the buyer)", security: sellerSecurity, headers: sellerApiHeadersSchema, response: { 200: claimListSchema, ...denied } },
    },
    async (request) => claims.ofSeller(request.seller),
  );

  app.post(
    '/api/seller/claims/:id/replace',
    {
      onRequest: asActiveSeller,
      config: sellerConfig,
      schema: {
        operationId: 'replaceClaimedKey',
        tags: ['sellers'],
        summary: "Replaces the claimed key: from the offer's uploaded keys, or through a provide of a declared offer",
        security: sellerSecurity,
        headers: sellerApiHeadersSchema,
        params: claimIdParamsSchema,
        response: { 200: claimAnswerSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => ({ claim: await claims.replaceBySeller(request.seller, request.params.id) }),
  );

  app.post(
    '/api/seller/claims/:id/reject',
    {
      onRequest: asActiveSeller,
      config: sellerConfig,
      schema: {
        operationId: 'rejectClaim',
        tags: ['sellers'],
        summary: 'Rejects a claim with a reason; the owner decides',
        security: sellerSecurity,
        headers: sellerApiHeadersSchema,
        params: claimIdParamsSchema,
        body: claimRejectSchema,
        response: { 200: claimAnswerSchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => ({ claim: await claims.rejectBySeller(request.seller, request.params.id, request.body.message) }),
  );

  app.get(
    '/api/admin/claims',
    {
      onRequest: app.requireAdmin,
      schema: { operationId: 'adminListClaims', tags: ['admin'], summary: 'Claims, newest first, by state', security: bearer, querystring: adminClaimsQuerySchema, response: { 200: claimListSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema } },
    },
    async (request) => claims.list(request.query.state),
  );

  app.post(
    '/api/admin/claims/:id/decide',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminDecideClaim',
        tags: ['admin'],
        summary: 'Decides a claim: replace the key, refund it, or reject the claim (audited)',
        security: bearer,
        params: claimIdParamsSchema,
        body: claimDecisionSchema,
        response: { 200: claimAnswerSchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => {
      const user = await users.findById(request.account.userId);
      if (!user) throw new Unauthorized(accountMessages.sessionExpired);
      return { claim: await claims.decide(request.params.id, request.body, { id: user.id, email: user.email }) };
    },
  );
};
