import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createOrderAnswerSchema,
  createOrderHeadersSchema,
  createOrderRequestSchema,
  errorSchema,
  orderIdParamsSchema,
  orderListSchema,
  orderSchema,
  reopenedCheckoutSchema,
} from '@keystore/contract';
import type { OrdersService } from './service.ts';

const bearer = [{ bearerAuth: [] }];

/** Placing and reading orders (DESIGN §4), and the admin refund. */
export const ordersRoutes: FastifyPluginAsyncZod<{ orders: OrdersService }> = async (app, { orders }) => {
  app.post(
    '/api/orders',
    {
      onRequest: app.authenticate,
      // Shed with a fast 503 when the store has more purchases under way than it can keep fast.
      config: { admission: 'order' },
      schema: {
        tags: ['orders'],
        summary: 'Places an order priced by the server from the catalogue; its stock is held for 30 minutes',
        description:
          'With an Idempotency-Key header, the same key with the same items answers the order that key placed (201, nothing reserved again), ' +
          'the same key with other items is a 422, and a request still awaiting the first answer never places a second order.',
        security: bearer,
        headers: createOrderHeadersSchema,
        body: createOrderRequestSchema,
        response: {
          201: createOrderAnswerSchema,
          400: errorSchema,
          401: errorSchema,
          404: errorSchema,
          409: errorSchema,
          422: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await orders.create(request.account.userId, request.body.items, request.headers['idempotency-key'])),
  );

  app.get(
    '/api/orders',
    {
      onRequest: app.authenticate,
      schema: { tags: ['orders'], summary: "The caller's orders, newest first", security: bearer, response: { 200: orderListSchema, 401: errorSchema } },
    },
    async (request) => orders.list(request.account.userId),
  );

  app.get(
    '/api/orders/:id',
    {
      onRequest: app.authenticate,
      schema: {
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
    '/api/admin/orders/:id/refund',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['orders', 'admin'],
        summary: 'Refunds a paid order within 30 days of payment and voids its keys (admin)',
        security: bearer,
        params: orderIdParamsSchema,
        response: { 200: orderSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => orders.refund(request.params.id),
  );
};
