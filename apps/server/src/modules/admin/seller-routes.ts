import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminSellerIdParamsSchema,
  adminSellerListSchema,
  adminSellerPatchSchema,
  adminSellerSchema,
  adminSellersQuerySchema,
  errorSchema,
  ledgerBalanceSchema,
  payoutIdParamsSchema,
  payoutListSchema,
  payoutPaidSchema,
  payoutRunSchema,
  payoutSchema,
  ADMIN_PAGE_SIZE,
} from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { recordAudit } from '../../platform/audit.ts';
import { toPayout, type Ledger } from '../ledger/ports.ts';
import type { SellersService } from '../sellers/ports.ts';
import type { UsersService } from '../users/ports.ts';
import { actorOf } from './actor.ts';

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const denied = { 401: errorSchema, 403: errorSchema };

/** The back office's marketplace: sellers (approve, suspend, commission, hold), payouts, and the ledger's trial balance. */
export const adminSellerRoutes: FastifyPluginAsyncZod<{ sellers: SellersService; ledger: Ledger; users: UsersService; database: Database; payoutMinimumCents: number }> = async (
  app,
  { sellers, ledger, users, database, payoutMinimumCents },
) => {
  const namesOf = async (sellerIds: string[]) => {
    const names = new Map<string, string>();
    for (const id of new Set(sellerIds)) names.set(id, (await sellers.find(id))?.name ?? id);
    return names;
  };

  app.get(
    '/api/admin/sellers',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminListSellers',
        tags,
        summary: 'Sellers, newest first, by status and name or contact e-mail',
        security: bearer,
        querystring: adminSellersQuerySchema,
        response: { 200: adminSellerListSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => sellers.adminPage({ status: request.query.status, q: request.query.q }, request.query.page, ADMIN_PAGE_SIZE),
  );

  app.patch(
    '/api/admin/sellers/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminUpdateSeller',
        tags,
        summary: "Approves or suspends a seller, or sets its commission (null: the store's default) or hold days",
        security: bearer,
        params: adminSellerIdParamsSchema,
        body: adminSellerPatchSchema,
        response: { 200: adminSellerSchema, 400: errorSchema, 404: errorSchema, ...denied },
      },
    },
    async (request) => {
      const actor = await actorOf(users, request);
      const { before, after } = await sellers.adminPatch(request.params.id, request.body);
      const pick = (seller: typeof before) => ({ status: seller.status, commission: seller.commission, customCommission: seller.customCommission, holdDays: seller.holdDays });
      await recordAudit(database.db, { actor, action: 'seller.update', target: { type: 'seller', id: request.params.id }, before: pick(before), after: pick(after) });
      return after;
    },
  );

  app.get(
    '/api/admin/payouts',
    {
      onRequest: app.requireAdmin,
      schema: { operationId: 'adminListPayouts', tags, summary: 'Payouts, newest first', security: bearer, response: { 200: payoutListSchema, ...denied } },
    },
    async () => {
      const rows = await ledger.payouts();
      const names = await namesOf(rows.map((row) => row.sellerId));
      return rows.map((row) => toPayout(row, names.get(row.sellerId)!));
    },
  );

  app.post(
    '/api/admin/payouts/run',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminRunPayouts',
        tags,
        summary: 'One payout per seller whose available balance reaches PAYOUT_MINIMUM, for all of it; running it again makes none',
        security: bearer,
        response: { 200: payoutRunSchema, ...denied },
      },
    },
    async (request) => {
      const actor = await actorOf(users, request);
      const made = await ledger.runPayouts(payoutMinimumCents);
      const names = await namesOf(made.map((row) => row.sellerId));
      const created = made.map((row) => toPayout(row, names.get(row.sellerId)!));
      await recordAudit(database.db, { actor, action: 'payout.run', target: { type: 'payouts', id: 'run' }, after: { payouts: created.map((payout) => ({ id: payout._id, seller: payout.sellerId, amount: payout.amount })) } });
      return { created };
    },
  );

  app.post(
    '/api/admin/payouts/:id/paid',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminPayoutPaid',
        tags,
        summary: "Marks a payout's bank transfer done, with its reference",
        security: bearer,
        params: payoutIdParamsSchema,
        body: payoutPaidSchema,
        response: { 200: payoutSchema, 400: errorSchema, 404: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => {
      const actor = await actorOf(users, request);
      const paid = await ledger.recordTransfer(request.params.id, request.body.reference);
      await recordAudit(database.db, { actor, action: 'payout.paid', target: { type: 'payout', id: paid.id }, before: { status: 'pending' }, after: { status: 'paid', reference: paid.reference } });
      return toPayout(paid, (await namesOf([paid.sellerId])).get(paid.sellerId)!);
    },
  );

  app.get(
    '/api/admin/ledger/balance',
    {
      onRequest: app.requireAdmin,
      schema: { operationId: 'adminLedgerBalance', tags, summary: "Every ledger account's balance and their total, which is always 0", security: bearer, response: { 200: ledgerBalanceSchema, ...denied } },
    },
    async () => ledger.trialBalance(),
  );
};
