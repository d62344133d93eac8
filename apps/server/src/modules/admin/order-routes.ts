import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminActionRequestSchema,
  adminOrderIdParamsSchema,
  adminOrderListSchema,
  adminOrderSchema,
  adminOrdersQuerySchema,
  errorSchema,
  type AdminOrder,
  reviewDecisionSchema,
  riskQueueSchema,
} from '@keystore/contract';
import type { AdminAction, OrdersService } from '../orders/ports.ts';
import type { UsersService } from '../users/ports.ts';
import { actorOf } from './actor.ts';

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const denied = { 401: errorSchema, 403: errorSchema };

/** The back office's orders: the table, its CSV, one order, and the refund, resend and retry actions. */
export const adminOrderRoutes: FastifyPluginAsyncZod<{ orders: OrdersService; users: UsersService }> = async (app, { orders, users }) => {
  const office = orders.backOffice;

  app.get(
    '/api/admin/orders',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListOrders',
        tags,
        summary: 'Orders, newest first, filtered by status, delivery, text (order id, buyer e-mail or username, game title) and UTC days',
        security: bearer,
        querystring: adminOrdersQuerySchema,
        response: { 200: adminOrderListSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      return office.list(filter, page, pageSize);
    },
  );

  app.get(
    '/api/admin/orders.csv',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminExportOrders',
        tags,
        summary: 'The orders of the same filters as CSV (RFC 4180, every page), streamed',
        description: 'Paging is ignored. A cell starting with = + - @ (or a tab or carriage return) starts with an apostrophe, so no spreadsheet runs it.',
        security: bearer,
        querystring: adminOrdersQuerySchema,
        response: {
          200: { description: 'One header row, then one row per order', content: { 'text/csv': { schema: z.string() } } },
          400: errorSchema,
          ...denied,
        },
      },
    },
    async (request, reply) => {
      const { page: _page, pageSize: _pageSize, ...filter } = request.query;
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`)
        // A stream is sent as it is, never through the response schema (which describes it for the OpenAPI only).
        .send(office.csv(filter) as unknown as string);
    },
  );

  app.get(
    '/api/admin/orders/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminGetOrder',
        tags,
        summary: 'One order with its buyer, payment, keys (masked: never a whole key) and timeline',
        security: bearer,
        params: adminOrderIdParamsSchema,
        response: { 200: adminOrderSchema, ...denied, 404: errorSchema },
      },
    },
    async (request) => office.detail(request.params.id),
  );

  const action = (path: string, operationId: string, summary: string, run: (orderId: string, by: AdminAction) => Promise<AdminOrder>) =>
    app.post(
      `/api/admin/orders/:id/${path}`,
      {
        onRequest: app.requireAdmin,
        schema: {
          operationId,
          tags,
          summary,
          description: 'Idempotent. Recorded in the order’s timeline and the audit log, with the reason given. A 409 says why the order’s state does not allow it.',
          security: bearer,
          params: adminOrderIdParamsSchema,
          body: adminActionRequestSchema,
          response: { 200: adminOrderSchema, 400: errorSchema, ...denied, 404: errorSchema, 409: errorSchema },
        },
      },
      async (request) => run(request.params.id, { actor: await actorOf(users, request), reason: request.body.reason }),
    );

  app.get(
    '/api/admin/risk/queue',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminRiskQueue',
        tags,
        summary: 'The orders in review, the soonest review deadline first, with their score and facts',
        security: bearer,
        response: { 200: riskQueueSchema, ...denied },
      },
    },
    async () => office.reviewQueue(),
  );

  // The risk desk's decisions on an order in review (issue 29): `{ note }`, in the timeline and the audit log.
  for (const [path, verdict, summary] of [
    ['approve', 'approved', 'Approves an order in review: its payment is captured and its keys go out at once'],
    ['cancel', 'cancelled', 'Cancels an order in review: its payment authorisation is released (nothing charged, no refund, no fee) and its keys go back'],
  ] as const) {
    app.post(
      `/api/admin/orders/:id/${path}`,
      {
        onRequest: app.requireAdmin,
        schema: {
          operationId: `${path}OrderInReview`,
          tags,
          summary,
          description: 'Decided once: a second decision, by anyone on any instance, is a 409, as is an order not in review.',
          security: bearer,
          params: adminOrderIdParamsSchema,
          body: reviewDecisionSchema,
          response: { 200: adminOrderSchema, 400: errorSchema, ...denied, 404: errorSchema, 409: errorSchema },
        },
      },
      async (request) => office.decideHeld(request.params.id, verdict, await actorOf(users, request), request.body.note),
    );
  }

  action('refund', 'refundOrder', 'Refunds a paid order within 30 days of payment and voids its keys; a refunded order answers as it is', (id, by) => office.refund(id, by));
  action('resend', 'adminResendReceipt', 'Sends the receipt with the keys again, to the buyer’s own address (a paid, delivered order)', (id, by) => office.resend(id, by));
  action('retry-delivery', 'adminRetryDelivery', 'Makes a paid order whose keys are not all in due for delivery now, and starts a run', (id, by) => office.retryDelivery(id, by));
};
