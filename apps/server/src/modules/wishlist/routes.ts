// The wishlist's HTTP surface (issue 31): the list, a game added, changed or removed, a visitor's list
// joined at sign-in, the alert mails' switch, and the one-click unsubscribe of RFC 8058.
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  alertPreferencesSchema,
  errorSchema,
  unsubscribeQuerySchema,
  wishBodySchema,
  wishlistGameParamsSchema,
  wishlistItemSchema,
  wishlistMergeSchema,
  wishlistMessages,
  wishlistSchema,
  WISHLIST_MAX_ITEMS,
} from '@keystore/contract';
import { z } from 'zod';
import { perAddress, type LimitRule } from '../../platform/limits.ts';
import type { WishlistService } from './service.ts';

const bearer = [{ bearerAuth: [] }];
const byToken: Array<Record<string, string[]>> = [{}];
/** Guessing at unsubscribe tokens costs as guessing at signed links does. */
const UNSUBSCRIBE_PER_IP: LimitRule = { name: 'alerts-unsubscribe-ip', limit: 60, windowSeconds: 15 * 60 };

export const wishlistRoutes: FastifyPluginAsyncZod<{ wishlist: WishlistService }> = async (app, { wishlist }) => {
  app.get(
    '/api/wishlist',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'getWishlist',
        tags: ['wishlist'],
        summary: 'The games the caller wished for, oldest first, each with its current price, the price when wished for and its alerts',
        security: bearer,
        response: { 200: wishlistSchema, 401: errorSchema },
      },
    },
    async (request) => wishlist.list(request.account.userId),
  );

  app.put(
    '/api/wishlist/:gameId',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'wishGame',
        tags: ['wishlist'],
        summary: `Adds a game to the wishlist (201) or changes its alerts (200); at most ${WISHLIST_MAX_ITEMS} games (409 beyond)`,
        security: bearer,
        params: wishlistGameParamsSchema,
        body: wishBodySchema,
        response: { 200: wishlistItemSchema, 201: wishlistItemSchema, 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const { userId } = request.account;
      const added = await wishlist.wish(userId, request.params.gameId, request.body ?? {});
      const item = (await wishlist.list(userId)).find((entry) => entry.gameId === request.params.gameId)!;
      return reply.code(added ? 201 : 200).send(item);
    },
  );

  app.delete(
    '/api/wishlist/:gameId',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'unwishGame',
        tags: ['wishlist'],
        summary: 'Removes a game from the wishlist (204, also for a game that was not on it)',
        security: bearer,
        params: wishlistGameParamsSchema,
        response: { 204: z.null(), 400: errorSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      await wishlist.unwish(request.account.userId, request.params.gameId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/wishlist/merge',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'mergeWishlist',
        tags: ['wishlist'],
        summary: "Joins the games a visitor wished for in the browser to the account (at sign-in); answers the whole list",
        security: bearer,
        body: wishlistMergeSchema,
        response: { 200: wishlistSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => wishlist.merge(request.account.userId, request.body),
  );

  app.get(
    '/api/users/alerts',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'getAlertPreferences',
        tags: ['wishlist'],
        summary: "Whether the wishlist's alerts are also e-mailed",
        security: bearer,
        response: { 200: alertPreferencesSchema, 401: errorSchema },
      },
    },
    async (request) => ({ email: await wishlist.alertMails(request.account.userId) }),
  );

  app.put(
    '/api/users/alerts',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'setAlertPreferences',
        tags: ['wishlist'],
        summary: "Turns the wishlist's alert mails on or off (the bell keeps telling)",
        security: bearer,
        body: alertPreferencesSchema,
        response: { 200: alertPreferencesSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => {
      await wishlist.setAlertMails(request.account.userId, request.body.email);
      return { email: request.body.email };
    },
  );

  await app.register(async (scope) => {
    const unsubscribe = scope.withTypeProvider<ZodTypeProvider>();
    // Mail clients post the one-click form (RFC 8058: `List-Unsubscribe=One-Click`); its body says nothing the token does not.
    unsubscribe.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
    unsubscribe.post(
      '/api/alerts/unsubscribe',
      {
        config: { limits: [perAddress(UNSUBSCRIBE_PER_IP)] },
        schema: {
          operationId: 'unsubscribeAlerts',
          tags: ['wishlist'],
          summary: "One-click unsubscribe (RFC 8058) from an alert mail's List-Unsubscribe: the signed token turns the account's alert mails off, without a sign-in",
          security: byToken,
          querystring: unsubscribeQuerySchema,
          response: { 200: z.object({ message: z.string() }), 400: errorSchema },
        },
      },
      async (request) => {
        await wishlist.unsubscribe(request.query.token);
        return { message: wishlistMessages.unsubscribed };
      },
    );
  });
};

