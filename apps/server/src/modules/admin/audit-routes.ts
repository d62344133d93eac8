import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminAuditQuerySchema, auditListSchema, errorSchema } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { auditPage } from '../../platform/audit.ts';

/** GET /api/admin/audit: every admin action, newest first. */
export const adminAuditRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    '/api/admin/audit',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminAuditLog',
        tags: ['admin'],
        summary: 'The audit log, newest first: who did what to which target, when, the values before and after, and why',
        security: [{ bearerAuth: [] }],
        querystring: adminAuditQuerySchema,
        response: { 200: auditListSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request) => auditPage(database.db, request.query.page, request.query.pageSize),
  );
};
