import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminStatsQuerySchema, adminStatsSchema, errorSchema } from '@keystore/contract';
import type { Ledger } from '../ledger/ports.ts';
import type { OrdersService } from '../orders/ports.ts';
import type { SupportService } from '../support/ports.ts';
import type { UsersService } from '../users/ports.ts';
import { dashboard } from './stats.ts';

/** GET /api/admin/stats: the dashboard's figures. */
export const adminStatsRoutes: FastifyPluginAsyncZod<{ orders: OrdersService; users: UsersService; support: SupportService; ledger: Ledger }> = async (app, deps) => {
  app.get(
    '/api/admin/stats',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminStats',
        tags: ['admin'],
        summary: 'The dashboard: revenue per day, orders by status, top games, customers, refunds of a period of UTC days (default the last 30); undelivered orders, open support messages, today’s revenue, the commission earned and what sellers are owed now',
        security: [{ bearerAuth: [] }],
        querystring: adminStatsQuerySchema,
        response: { 200: adminStatsSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request) => dashboard(deps, request.query),
  );
};
