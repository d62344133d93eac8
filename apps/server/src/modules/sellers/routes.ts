import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  apiKeyRequestSchema,
  createdApiKeySchema,
  errorSchema,
  payoutListSchema,
  pricePreviewQuerySchema,
  pricePreviewSchema,
  sellerAnswerSchema,
  sellerApiHeadersSchema,
  sellerApplicationSchema,
  sellerLedgerSchema,
  sellerMessages,
  sellerPageQuerySchema,
  sellerSalesSchema,
  sellerSchema,
  SELLER_PAGE_SIZE,
  securityMessages,
} from '@keystore/contract';
import { z } from 'zod';
import { Forbidden } from '../../platform/errors.ts';
import { clientIp } from '../../platform/client-ip.ts';
import { perAddress, perUser, type LimitRule } from '../../platform/limits.ts';
import { toPayout, type Ledger } from '../ledger/ports.ts';
import type { Accounts } from '../users/ports.ts';
import type { IdentityChecks } from '../security/ports.ts';
import type { SellersService } from './service.ts';
import type { SellerRow } from './store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The seller calling /api/seller/* (by its session or its X-Api-Key). */
    seller: SellerRow;
  }
}

const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { sellerApiKey: [] }];
const tags = ['sellers'];
const denied = { 401: errorSchema, 403: errorSchema, 404: errorSchema };
const APPLY: LimitRule = { name: 'seller-apply', limit: 10, windowSeconds: 3600 };

/** The onRequest hooks of /api/seller/*: the caller's seller, and one that may change things (not suspended). */
export function sellerGuards(app: FastifyInstance, sellers: SellersService) {
  /** The caller's seller: an X-Api-Key (a suspended seller's is refused), else the session's user's seller. */
  const asSeller = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['x-api-key'];
    if (typeof key === 'string' && key.length > 0) {
      request.seller = await sellers.ofApiKey(key);
      return;
    }
    await app.authenticate(request, reply);
    request.seller = await sellers.ofUser(request.account.userId);
  };
  /** As asSeller, for a change: a suspended seller may read its account, not change it. */
  const asActiveSeller = async (request: FastifyRequest, reply: FastifyReply) => {
    await asSeller(request, reply);
    if (request.seller.status === 'suspended') throw new Forbidden(sellerMessages.sellerSuspended);
  };
  return { asSeller, asActiveSeller };
}

/**
 * Before a change that outlives the session (an API key, the webhook), issue 30: a signed-in person,
 * not a system with an API key, who types the password again (and the authenticator code when on).
 * Answers where the change came from, for the security mail it sends.
 */
export async function confirmedIdentity(
  identity: IdentityChecks,
  request: FastifyRequest,
  body: { password: string; code?: string | undefined },
): Promise<{ userId: string; ip: string; userAgent: string | undefined }> {
  if (!request.account) throw new Forbidden(securityMessages.sessionRequiredForChange);
  await identity.confirmIdentity(request.account.userId, body);
  return { userId: request.account.userId, ip: clientIp(request), userAgent: request.headers['user-agent'] };
}

/** Passwords typed again for a change that outlives the session, per account: a stolen session guesses no further. */
export const IDENTITY_GUESSES: LimitRule = { name: 'identity-confirmation-account', limit: 10, windowSeconds: 15 * 60 };

/** A seller's system may call often (key uploads, price changes), within reason. */
export const SELLER_API: LimitRule = { name: 'seller-api', limit: 600, windowSeconds: 60 };

/** The marketplace's routes for sellers (/api/sellers, /api/seller/*): accounts, API keys, sales and money. */
export const sellerRoutes: FastifyPluginAsyncZod<{ sellers: SellersService; ledger: Ledger; accounts: Accounts; identity: IdentityChecks }> = async (
  app,
  { sellers, ledger, accounts, identity },
) => {
  const { asSeller, asActiveSeller } = sellerGuards(app, sellers);
  const config = { limits: [perAddress(SELLER_API)] };
  const headers = sellerApiHeadersSchema;

  app.post(
    '/api/sellers',
    {
      onRequest: app.authenticate,
      config: { limits: [perAddress(APPLY)] },
      schema: {
        operationId: 'applyAsSeller',
        tags,
        summary: 'A signed-in, verified customer applies to sell; the owner approves in the back office',
        security: [{ bearerAuth: [] }],
        body: sellerApplicationSchema,
        response: { 201: sellerAnswerSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const user = await accounts.findById(request.account.userId);
      const seller = await sellers.apply(request.account.userId, user?.emailVerifiedAt != null, request.body);
      return reply.code(201).send({ seller });
    },
  );

  app.get(
    '/api/seller',
    {
      onRequest: asSeller,
      config,
      schema: { operationId: 'getSeller', tags, summary: "The caller's seller account, balance and stock", security, headers, response: { 200: sellerSchema, ...denied } },
    },
    async (request) => sellers.view(request.seller),
  );

  // --- API keys ---
  app.post(
    '/api/seller/api-keys',
    {
      onRequest: asActiveSeller,
      config: { limits: [perAddress(SELLER_API), perUser(IDENTITY_GUESSES)] },
      schema: {
        operationId: 'createSellerApiKey',
        tags,
        summary: "A new API key for the seller's systems (signed in, the password and the authenticator code typed again); the key is in this answer only",
        security,
        headers,
        body: apiKeyRequestSchema,
        response: { 201: createdApiKeySchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request, reply) => {
      const origin = await confirmedIdentity(identity, request, request.body);
      const created = await sellers.createApiKey(request.seller, request.body.name);
      await identity.recordNow(origin.userId, 'api-key-created', origin);
      return reply.code(201).send(created);
    },
  );
  app.get(
    '/api/seller/api-keys',
    {
      onRequest: asSeller,
      config,
      schema: { operationId: 'listSellerApiKeys', tags, summary: "The seller's API keys (never the keys themselves)", security, headers, response: { 200: apiKeyListSchema, ...denied } },
    },
    async (request) => sellers.apiKeys(request.seller),
  );
  app.delete(
    '/api/seller/api-keys/:id',
    {
      onRequest: asSeller,
      config,
      schema: { operationId: 'deleteSellerApiKey', tags, summary: 'Revokes an API key', security, headers, params: apiKeyIdParamsSchema, response: { 204: z.null(), ...denied } },
    },
    async (request, reply) => {
      await sellers.deleteApiKey(request.seller, request.params.id);
      if (request.seller.userId) await identity.recordNow(request.seller.userId, 'api-key-deleted', { ip: clientIp(request), userAgent: request.headers['user-agent'] });
      return reply.code(204).send(null);
    },
  );

  // --- Offers ---
  app.get(
    '/api/seller/price-preview',
    {
      onRequest: asSeller,
      config,
      schema: {
        operationId: 'sellerPricePreview',
        tags,
        summary: "What a buyer pays for a net price, by the seller's commission",
        security,
        headers,
        querystring: pricePreviewQuerySchema,
        response: { 200: pricePreviewSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => sellers.pricePreview(request.seller, Math.round(request.query.netPrice * 100)),
  );
  // --- Sales and money ---
  app.get(
    '/api/seller/sales',
    {
      onRequest: asSeller,
      config,
      schema: {
        operationId: 'listSellerSales',
        tags,
        summary: "The seller's sales, newest first (never the buyer)",
        security,
        headers,
        querystring: sellerPageQuerySchema,
        response: { 200: sellerSalesSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => sellers.sales(request.seller, request.query.page),
  );
  app.get(
    '/api/seller/ledger',
    {
      onRequest: asSeller,
      config,
      schema: {
        operationId: 'sellerLedger',
        tags,
        summary: "The entries of the seller's balance: sales, commission, releases, refunds, payouts",
        security,
        headers,
        querystring: sellerPageQuerySchema,
        response: { 200: sellerLedgerSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => ({ ...(await ledger.statement(request.seller.id, request.query.page, SELLER_PAGE_SIZE)), page: request.query.page, pageSize: SELLER_PAGE_SIZE }),
  );
  app.get(
    '/api/seller/payouts',
    {
      onRequest: asSeller,
      config,
      schema: { operationId: 'sellerPayouts', tags, summary: "The seller's payouts, newest first", security, headers, response: { 200: payoutListSchema, ...denied } },
    },
    async (request) => (await ledger.payouts(request.seller.id)).map((payout) => toPayout(payout, request.seller.name)),
  );

};
