import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountMessages,
  createOrderAnswerSchema,
  createOrderHeadersSchema,
  createOrderRequestSchema,
  errorSchema,
  orderIdParamsSchema,
  orderListSchema,
  orderKeysQuerySchema,
  orderKeysSchema,
  orderSchema,
  orderTokenQuerySchema,
  priceConflictSchema,
  reopenedCheckoutSchema,
} from '@keystore/contract';
import { browserOf, clientIp } from '../../platform/client-ip.ts';
import { Unauthorized } from '../../platform/errors.ts';
import { perAddress, type LimitRule } from '../../platform/limits.ts';
import type { OrdersService } from './service.ts';
import { accessOf, accountOrGuest, sessionIfSent } from './access.ts';

const bearer = [{ bearerAuth: [] }];
/** A route a guest may call with the order's signed link instead of a session (issue 29). */
const bearerOrLink: Array<Record<string, string[]>> = [{ bearerAuth: [] }, {}];

/** Guessing at order links is as slow as guessing at codes: a link's key is long, but every try costs. */
const ORDER_LINK_PER_IP: LimitRule = { name: 'order-link-ip', limit: 300, windowSeconds: 15 * 60 };


/** Placing and reading orders (DESIGN §4). The admin's order routes are in modules/admin. */
export const ordersRoutes: FastifyPluginAsyncZod<{ orders: OrdersService }> = async (app, { orders }) => {
  app.post(
    '/api/orders',
    {
      onRequest: sessionIfSent(app),
      // A stranger with no e-mail is refused before the purchase turn.
      preHandler: accountOrGuest((request) => (request.body as { email?: string }).email),
      // Shed with a fast 503 when the store has more purchases under way than it can keep fast.
      config: { admission: 'order' },
      schema: {
        operationId: 'createOrder',
        tags: ['orders'],
        summary: 'Places an order priced by the server from the catalogue; its stock is held for 30 minutes',
        description:
          'With an Idempotency-Key header, the same key with the same items answers the order that key placed (201, nothing reserved again), ' +
          'the same key with other items is a 422, and a request still awaiting the first answer never places a second order. ' +
          'What waits for payment at once is capped (409): per customer 3 orders, 20 keys, and 10 keys of one game; ' +
          'per client address 10 orders and 60 keys, over every account placing from it. ' +
          'Without a session, `email` places a guest\'s order (issue 29), answered with its signed `token` (30 days) for the order page, ' +
          'its keys and its payment; a guest is further capped by the owner\'s guest limits (409 asking to sign in). Neither: 401.',
        security: bearerOrLink,
        headers: createOrderHeadersSchema,
        body: createOrderRequestSchema,
        response: {
          201: createOrderAnswerSchema,
          400: errorSchema,
          401: errorSchema,
          404: errorSchema,
          409: priceConflictSchema,
          422: errorSchema,
          429: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const address = clientIp(request);
      const email = request.body.email;
      if (!request.account && email === undefined) throw new Unauthorized(accountMessages.authRequired);
      const browser = browserOf(request);
      const placer = request.account ? { userId: request.account.userId, accountEmail: request.account.email, address, browser } : { email: email!, address, browser };
      return reply.code(201).send(await orders.create(placer, request.body.items, request.headers['idempotency-key'], request.body.gift));
    },
  );

  app.get(
    '/api/orders',
    {
      onRequest: app.authenticate,
      schema: { operationId: 'listOrders', tags: ['orders'], summary: "The caller's orders, newest first", security: bearer, response: { 200: orderListSchema, 401: errorSchema } },
    },
    async (request) => orders.list(request.account.userId),
  );

  app.get(
    '/api/orders/:id',
    {
      config: { limits: [perAddress(ORDER_LINK_PER_IP)] },
      schema: {
        operationId: 'getOrder',
        tags: ['orders'],
        summary: 'One order of the caller, or of whoever holds its signed link (`?token=`), with its keys listed but not revealed (404 for anyone else)',
        security: bearerOrLink,
        params: orderIdParamsSchema,
        querystring: orderTokenQuerySchema,
        response: { 200: orderSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (request) => orders.get(request.params.id, await accessOf(app, request, request.query.token)),
  );

  app.get(
    '/api/orders/:id/keys',
    {
      config: { limits: [perAddress(ORDER_LINK_PER_IP)] },
      schema: {
        operationId: 'revealOrderKeys',
        tags: ['orders'],
        summary: "Reveals an order's keys, or the one `keyId` names, to its owner or the holder of its signed link (each reveal recorded)",
        security: bearerOrLink,
        params: orderIdParamsSchema,
        querystring: orderKeysQuerySchema,
        response: { 200: orderKeysSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { keys: await orders.revealKeys(request.params.id, await accessOf(app, request, request.query.token), request.query.keyId, clientIp(request)) };
    },
  );

  app.post(
    '/api/orders/:id/checkout',
    {
      config: { limits: [perAddress(ORDER_LINK_PER_IP)] },
      schema: {
        operationId: 'reopenCheckout',
        tags: ['orders'],
        summary: "Where to go back to paying one of the caller's orders awaiting payment (or a guest's, by its link): the same checkout while it is open",
        security: bearerOrLink,
        params: orderIdParamsSchema,
        querystring: orderTokenQuerySchema,
        response: { 200: reopenedCheckoutSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema, 503: errorSchema },
      },
    },
    async (request) => ({ paymentUrl: await orders.reopenCheckout(request.params.id, await accessOf(app, request, request.query.token)) }),
  );

  app.post(
    '/api/orders/:id/cancel',
    {
      config: { limits: [perAddress(ORDER_LINK_PER_IP)] },
      schema: {
        operationId: 'cancelOrder',
        tags: ['orders'],
        summary: "Cancels one of the caller's orders awaiting payment: its keys go back on the shelf at once",
        description:
          'Idempotent: an order already closed unpaid (cancelled, expired, declined) answers as it is. ' +
          'A paid or refunded order is a 409; an order of someone else is a 404. A guest cancels with its link.',
        security: bearerOrLink,
        params: orderIdParamsSchema,
        querystring: orderTokenQuerySchema,
        response: { 200: orderSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => orders.cancel(request.params.id, await accessOf(app, request, request.query.token)),
  );
};
