import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createOrderAnswerSchema,
  createOrderHeadersSchema,
  createOrderRequestSchema,
  errorSchema,
  orderIdParamsSchema,
  orderListSchema,
  orderSchema,
  priceConflictSchema,
  reopenedCheckoutSchema,
} from '@keystore/contract';
import { clientIp } from '../../platform/client-ip.ts';
import type { OrdersService } from './service.ts';

const bearer = [{ bearerAuth: [] }];

/** Placing and reading orders (DESIGN §4). The admin's order routes are in modules/admin. */
export const ordersRoutes: FastifyPluginAsyncZod<{ orders: OrdersService }> = async (app, { orders }) => {
  app.post(
    '/api/orders',
    {
      onRequest: app.authenticate,
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
          'per client address 10 orders and 60 keys, over every account placing from it.',
        security: bearer,
        headers: createOrderHeadersSchema,
        body: createOrderRequestSchema,
        response: {
          201: createOrderAnswerSchema,
          400: errorSchema,
          401: errorSchema,
          404: errorSchema,
          409: priceConflictSchema,
          422: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await orders.create({ userId: request.account.userId, address: clientIp(request) }, request.body.items, request.headers['idempotency-key'])),
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
      onRequest: app.authenticate,
      schema: {
        operationId: 'getOrder',
        tags: ['orders'],
        summary: 'One order of the caller (404 for anyone else)',
        security: bearer,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (request) => orders.get(request.params.id, request.account.userId),
  );

  app.post(
    '/api/orders/:id/checkout',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'reopenCheckout',
        tags: ['orders'],
        summary: "Where to go back to paying one of the caller's orders awaiting payment: the same checkout while it is open",
        security: bearer,
        params: orderIdParamsSchema,
        response: { 200: reopenedCheckoutSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema, 503: errorSchema },
      },
    },
    async (request) => ({ paymentUrl: await orders.reopenCheckout(request.params.id, request.account.userId) }),
  );

  app.post(
    '/api/orders/:id/cancel',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'cancelOrder',
        tags: ['orders'],
        summary: "Cancels one of the caller's orders awaiting payment: its keys go back on the shelf at once",
        description:
          'Idempotent: an order already closed unpaid (cancelled, expired, declined) answers as it is. ' +
          'A paid or refunded order is a 409; an order of someone else is a 404.',
        security: bearer,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => orders.cancel(request.params.id, request.account.userId),
  );
};
