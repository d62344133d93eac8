import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminGameIdParamsSchema,
  adminGameListSchema,
  adminGamePatchSchema,
  adminGameSchema,
  adminGamesQuerySchema,
  adminMessages,
  adminSettingsPatchSchema,
  adminSettingsSchema,
  errorSchema,
  messageSchema,
  syncRunListSchema,
} from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { Conflict } from '../../platform/errors.ts';
import type { CatalogService } from '../catalog/ports.ts';
import type { SecurityService } from '../security/ports.ts';
import type { SellersService } from '../sellers/ports.ts';
import type { UsersService } from '../users/ports.ts';
import type { OrdersService } from '../orders/ports.ts';
import { actorOf } from './actor.ts';

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const denied = { 401: errorSchema, 403: errorSchema };
const SYNC_RUNS = 50;

/** The back office's catalogue: sync runs and "Sync now", the owner's choices per game, and the markup. */
export const adminCatalogRoutes: FastifyPluginAsyncZod<{
  catalog: CatalogService;
  users: UsersService;
  sellers: SellersService;
  orders: OrdersService;
  security: Pick<SecurityService, 'policy' | 'setPolicy'>;
  database: Database;
}> = async (app, { catalog, users, sellers, orders, security, database }) => {
  const settingsNow = async () => {
    const [markupPercent, commission, sellerScoreFloor, guests, required] = await Promise.all([
      catalog.markupPercent(),
      sellers.defaultCommission(),
      sellers.scoreFloor(),
      orders.guestSettings(),
      security.policy(),
    ]);
    return {
      markupPercent,
      sellerCommissionPercent: commission.percent,
      sellerCommissionFixed: commission.fixedCents / 100,
      sellerScoreFloor,
      ...guests,
      secondFactorForAdmins: required.admins,
      secondFactorForSellers: required.sellers,
    };
  };
  app.get(
    '/api/admin/sync-runs',
    {
      onRequest: app.requireAdmin,
      schema: { operationId: 'adminSyncRuns', tags, summary: 'The latest supplier syncs, newest first', security: bearer, response: { 200: syncRunListSchema, ...denied } },
    },
    async () => catalog.syncRuns(SYNC_RUNS),
  );

  app.post(
    '/api/admin/sync',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminStartSync',
        tags,
        summary: 'Starts a supplier sync now, in the background (one per cluster, like the scheduled one); 409 while one runs',
        security: bearer,
        response: { 202: messageSchema, ...denied, 409: errorSchema },
      },
    },
    async (request, reply) => {
      if (await catalog.syncUnderWay()) throw new Conflict(adminMessages.syncRunning);
      const actor = await actorOf(users, request);
      catalog.startSync();
      await recordAudit(database.db, { actor, action: 'catalog.sync', target: { type: 'catalog', id: 'supplier' } });
      return reply.code(202).send({ message: adminMessages.syncStarted });
    },
  );

  app.get(
    '/api/admin/games',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListGames',
        tags,
        summary: 'Games whose title contains `q`, hidden ones included, featured and most popular first',
        security: bearer,
        querystring: adminGamesQuerySchema,
        response: { 200: adminGameListSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => catalog.adminGames(request.query.q, request.query.page, request.query.pageSize),
  );

  app.patch(
    '/api/admin/games/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminUpdateGame',
        tags,
        summary: 'Hides or shows a game, features it on the home carousel, or sets (null: removes) its price; every sync keeps these',
        security: bearer,
        params: adminGameIdParamsSchema,
        body: adminGamePatchSchema,
        response: { 200: adminGameSchema, 400: errorSchema, ...denied, 404: errorSchema },
      },
    },
    async (request) => {
      const { hidden, featured, priceOverride } = request.body;
      const actor = await actorOf(users, request);
      const { before, after } = await catalog.updateGame(request.params.id, {
        hidden,
        featured,
        priceOverrideCents: priceOverride === undefined ? undefined : priceOverride === null ? null : Math.round(priceOverride * 100),
      });
      await recordAudit(database.db, { actor, action: 'game.update', target: { type: 'game', id: after._id }, before, after });
      return after;
    },
  );

  app.get(
    '/api/admin/settings',
    {
      onRequest: app.requireAdmin,
      schema: { operationId: 'adminSettings', tags, summary: 'The store’s settings: the markup over the supplier’s prices and the sellers’ default commission', security: bearer, response: { 200: adminSettingsSchema, ...denied } },
    },
    async () => settingsNow(),
  );

  app.patch(
    '/api/admin/settings',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminUpdateSettings',
        tags,
        summary:
          "Sets the markup (0–30 %; prices follow from the next sync), the sellers' default commission (their offers are repriced at once), the guest limits, and whether admins and sellers must have a second factor",
        security: bearer,
        body: adminSettingsPatchSchema,
        response: { 200: adminSettingsSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => {
      const actor = await actorOf(users, request);
      const before = await settingsNow();
      const { markupPercent, sellerCommissionPercent, sellerCommissionFixed, sellerScoreFloor, guestMaxOrder, guestMaxCopies, guestOrdersPerDay, secondFactorForAdmins, secondFactorForSellers } =
        request.body;
      if (secondFactorForAdmins !== undefined || secondFactorForSellers !== undefined) await security.setPolicy({ admins: secondFactorForAdmins, sellers: secondFactorForSellers });
      if (guestMaxOrder !== undefined || guestMaxCopies !== undefined || guestOrdersPerDay !== undefined) await orders.setGuestSettings({ guestMaxOrder, guestMaxCopies, guestOrdersPerDay });
      if (markupPercent !== undefined) await catalog.setMarkupPercent(markupPercent);
      if (sellerScoreFloor !== undefined) await sellers.setScoreFloor(sellerScoreFloor);
      if (sellerCommissionPercent !== undefined || sellerCommissionFixed !== undefined) {
        await sellers.setDefaultCommission({
          percent: sellerCommissionPercent,
          fixedCents: sellerCommissionFixed === undefined ? undefined : Math.round(sellerCommissionFixed * 100),
        });
      }
      const after = await settingsNow();
      await recordAudit(database.db, { actor, action: 'settings.update', target: { type: 'settings', id: 'store' }, before, after });
      return after;
    },
  );
};
