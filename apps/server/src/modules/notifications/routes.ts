import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminNotificationRequestSchema,
  errorSchema,
  notificationIdParamsSchema,
  notificationListSchema,
  notificationMessages,
  notificationSchema,
  notificationStreamQuerySchema,
  streamTicketSchema,
} from '@keystore/contract';
import { STREAM_TICKET_SECONDS } from '../auth/ports.ts';
import { clientIp } from '../../platform/client-ip.ts';
import { HttpError, TooManyRequests, Unauthorized } from '../../platform/errors.ts';
import type { NotificationsService } from './service.ts';
import { NO_AUTH, OPTIONAL_BEARER } from '../../platform/openapi.ts';

const bearer = [{ bearerAuth: [] }];
/** When a refused stream may try again (EventSource itself retries after a few seconds). */
const STREAM_RETRY_SECONDS = 30;

/** The notification calls of SPEC §7, the admin's public notification, and the live stream (DESIGN §4). */
export const notificationsRoutes: FastifyPluginAsyncZod<{ notifications: NotificationsService }> = async (app, { notifications }) => {
  app.get(
    '/api/notifications',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'listNotifications',
        tags: ['notifications'],
        summary: 'Public notifications and the caller’s own since the account was created, newest first (at most 50)',
        security: bearer,
        response: { 200: notificationListSchema, 401: errorSchema },
      },
    },
    async (request) => notifications.listFor(request.account.userId),
  );

  app.get(
    '/api/notifications/public',
    {
      schema: {
        operationId: 'listPublicNotifications',
        security: NO_AUTH,
        tags: ['notifications'],
        summary: 'Public notifications for visitors, newest first (at most 50); visitors keep their read state in the browser',
        response: { 200: notificationListSchema },
      },
    },
    async () => notifications.listPublic(),
  );

  app.post(
    '/api/notifications/mark-read/:id',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'markNotificationRead',
        tags: ['notifications'],
        summary: 'Marks one notification read for the caller; repeating it changes nothing',
        security: bearer,
        params: notificationIdParamsSchema,
        response: { 204: z.null(), 401: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      await notifications.markRead(request.account.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/admin/notifications',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'publishNotification',
        tags: ['notifications', 'admin'],
        summary: 'Publishes a public notification (admins only)',
        security: bearer,
        body: adminNotificationRequestSchema,
        response: { 201: notificationSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async (request, reply) => {
      const published = await notifications.publish({ ...request.body, kind: 'admin' });
      await app.audit(request, { action: 'notification.publish', target: { type: 'notification', id: published._id }, after: request.body });
      return reply.code(201).send(published);
    },
  );

  app.post(
    '/api/notifications/stream-ticket',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'createStreamTicket',
        tags: ['notifications'],
        summary: 'A ticket that opens the caller’s notification stream once, within a minute (EventSource cannot send the bearer header)',
        security: bearer,
        response: { 200: streamTicketSchema, 401: errorSchema },
      },
    },
    async (request) => ({ ticket: await app.auth.sessions.issueStreamTicket(request.account), expiresInSeconds: STREAM_TICKET_SECONDS }),
  );

  app.get(
    '/api/notifications/stream',
    {
      // The browser's EventSource cannot set headers, so a stream ticket or the visitor's session id
      // may come in the query string instead; an Authorization header, when present, wins.
      onRequest: async (request, reply) => {
        if (request.headers.authorization) return app.authenticate(request, reply);
        const { ticket } = request.query as z.infer<typeof notificationStreamQuerySchema>;
        if (typeof ticket === 'string' && ticket) await app.authenticateTicket(request, ticket);
      },
      schema: {
        operationId: 'streamNotifications',
        security: OPTIONAL_BEARER,
        tags: ['notifications'],
        summary: 'Server-sent events: each notification the caller may see, as it is created (bearer token or stream ticket, or a visitor’s session id)',
        description:
          'Authenticate with `Authorization: Bearer …` or `?ticket=` (from POST /api/notifications/stream-ticket, used once), ' +
          'or as a visitor with `x-session-id` or `?sessionId=` (public notifications only). ' +
          'Each notification is an event named `notification` whose data is a Notification; a comment line is sent every 25 s.',
        querystring: notificationStreamQuerySchema,
        response: {
          200: { description: 'The event stream, open until either side closes it', content: { 'text/event-stream': { schema: z.string() } } },
          400: errorSchema,
          401: errorSchema,
          429: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const userId = request.account?.userId ?? null;
      const sessionId = request.headers['x-session-id'] ?? request.query.sessionId;
      if (!userId && !sessionId) throw new Unauthorized(notificationMessages.streamAuthRequired);
      const address = clientIp(request);
      if (notifications.streams.tooManyFrom(userId, address)) throw new TooManyRequests(notificationMessages.tooManyStreams, STREAM_RETRY_SECONDS);
      if (notifications.streams.full) throw new HttpError(503, notificationMessages.streamsBusy, { 'Retry-After': String(STREAM_RETRY_SECONDS) });
      // Taken over from Fastify: no serializer and no onSend hooks, so compression never buffers the stream.
      reply.hijack();
      // The headers other hooks set (helmet's) are kept.
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined && name !== 'content-length') headers[name] = typeof value === 'number' ? String(value) : value;
      }
      reply.raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Tells nginx-like proxies not to buffer the events.
        'x-accel-buffering': 'no',
      });
      reply.raw.write(': connected\n\n');
      const { account } = request;
      notifications.streams.subscribe(userId, address, reply.raw, userId ? () => app.auth.sessions.isOpen(account) : undefined);
    },
  );
};
