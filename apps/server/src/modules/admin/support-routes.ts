import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminSupportIdParamsSchema,
  adminSupportListSchema,
  adminSupportMessageSchema,
  adminSupportQuerySchema,
  adminSupportReplySchema,
  errorSchema,
} from '@keystore/contract';
import type { SupportService } from '../support/ports.ts';
import type { UsersService } from '../users/ports.ts';
import { actorOf } from './actor.ts';

const bearer = [{ bearerAuth: [] }];

/** The support inbox: the form's messages, and the reply by e-mail. */
export const adminSupportRoutes: FastifyPluginAsyncZod<{ support: SupportService; users: UsersService }> = async (app, { support, users }) => {
  app.get(
    '/api/admin/support',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminSupportInbox',
        tags: ['admin'],
        summary: 'The support form’s messages, newest first, open or answered',
        security: bearer,
        querystring: adminSupportQuerySchema,
        response: { 200: adminSupportListSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request) => support.inbox(request.query.status, request.query.page, request.query.pageSize),
  );

  app.post(
    '/api/admin/support/:id/reply',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminReplySupport',
        tags: ['admin'],
        summary: 'Answers a message by e-mail to its sender (through the outbox) and marks it answered',
        security: bearer,
        params: adminSupportIdParamsSchema,
        body: adminSupportReplySchema,
        response: { 200: adminSupportMessageSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => support.reply(request.params.id, request.body.reply, await actorOf(users, request)),
  );
};
