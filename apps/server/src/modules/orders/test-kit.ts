// What the order, payment and library tests share: the real app on a fresh database with the demo
// catalogue synced, customers made fast (one password hash for all, sessions opened directly: a
// hundred argon2 hashes would take the test's whole time), and the buyer's journey as calls.
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyServerOptions, LightMyRequestResponse } from 'fastify';
import { DEFAULT_RISK_RULES, type CreateOrderAnswer, type Order, type RiskSignal, type TestPaymentRequest } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../platform/schema.ts';
import { games } from '../catalog/schema.ts';
import { users as usersTable } from '../users/schema.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import type { Supplier } from '../supplier/supplier.ts';
import { SessionService } from '../auth/sessions.ts';
import { UsersService } from '../users/service.ts';

/** The password every buyer of the kit has. */
export const BUYER_PASSWORD = 'Secret123';

export interface Buyer {
  userId: string;
  email: string;
  token: string;
  headers: { authorization: string };
  /** The client address the kit's orders and payments come from: each buyer its own, as customers have (the risk desk counts per address). */
  address: string;
}

export const PAYING_CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Ada Lovelace' } as const;

export interface OrdersTestApp extends TestApp {
  /** A verified customer of two days' standing (not a new buyer to the risk desk) with an open session, made without the sign-up flow. */
  buyer(role?: 'customer' | 'admin'): Promise<Buyer>;
  /** `count` buyers, made in parallel. */
  buyers(count: number): Promise<Buyer[]>;
  /** The id of a demo game, with its stock set to `stock`. */
  gameWithStock(stock: number, index?: number): Promise<string>;
  stockOf(gameId: string): Promise<number>;
  placeOrder(buyer: Buyer, items: Array<{ gameId: string; quantity: number; [extra: string]: unknown }>): Promise<LightMyRequestResponse>;
  /** Places an order that must succeed, and answers it. */
  order(buyer: Buyer, gameId: string, quantity?: number): Promise<CreateOrderAnswer>;
  pay(buyer: Buyer, orderId: string, card?: Partial<TestPaymentRequest>): Promise<LightMyRequestResponse>;
  getOrder(buyer: Buyer, orderId: string): Promise<Order>;
  /**
   * Puts the default risk rules in force without these signals' (as an owner may): for tests whose
   * subject is not the risk desk but that buy more than 2 copies of a title, which the defaults hold for review.
   */
  riskRulesWithout(...signals: RiskSignal[]): Promise<void>;
  /** Mails to an address, newest first, once the mails under way are written. */
  mailsTo(email: string): Promise<Array<{ subject: string; text: string; html: string }>>;
}

let counter = 0;

export async function ordersTestApp(
  options: { env?: Record<string, string>; supplier?: Supplier; sync?: boolean; database?: Database; logger?: FastifyServerOptions['logger']; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<OrdersTestApp> {
  const t = await buildTestApp({
    env: options.env ?? {},
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.supplier ? { supplier: options.supplier } : {}),
    ...(options.database ? { database: options.database } : {}),
    ...(options.beforeReady ? { beforeReady: options.beforeReady } : {}),
  });
  if (options.sync ?? true) await t.app.catalog.syncNow();
  const users = new UsersService(t.database, t.config);
  const sessions = new SessionService(t.database, t.config.secrets.jwt);
  const passwordHash = await hashPassword(BUYER_PASSWORD);
  const db = t.database.db;

  const buyer: OrdersTestApp['buyer'] = async (role = 'customer') => {
    counter += 1;
    const tag = `${process.pid.toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
    const email = `buyer.${tag}@gmail.com`;
    const user = await users.create({ username: `Buyer_${tag}`, email, passwordHash, role, verified: true });
    await db.update(usersTable).set({ createdAt: sql`now() - interval '2 days'` }).where(eq(usersTable.id, user.id));
    const address = `198.18.${Math.floor(counter / 250) % 250}.${(counter % 250) + 1}`;
    const token = await sessions.open(user.id, { ip: address, userAgent: 'orders-test' });
    return { userId: user.id, email, token, headers: { authorization: `Bearer ${token}` }, address };
  };

  const placeOrder: OrdersTestApp['placeOrder'] = (who, items) =>
    t.app.inject({ method: 'POST', url: '/api/orders', headers: who.headers, payload: { items }, remoteAddress: who.address });

  return {
    ...t,
    buyer,
    buyers: (count) => Promise.all(Array.from({ length: count }, () => buyer())),
    async gameWithStock(stock, index = 0) {
      const [game] = await db.select({ id: games.id }).from(games).orderBy(games.supplierProductId).offset(index).limit(1);
      await db.update(games).set({ supplierStock: stock, reserved: 0 }).where(eq(games.id, game!.id));
      return game!.id;
    },
    async stockOf(gameId) {
      const [game] = await db.select({ stock: games.stock }).from(games).where(eq(games.id, gameId));
      return game!.stock;
    },
    placeOrder,
    async order(who, gameId, quantity = 1) {
      const answer = await placeOrder(who, [{ gameId, quantity }]);
      if (answer.statusCode !== 201) throw new Error(`order failed: ${answer.statusCode} ${answer.body}`);
      return answer.json<CreateOrderAnswer>();
    },
    pay: (who, orderId, card = {}) =>
      t.app.inject({ method: 'POST', url: `/api/payments/test/${orderId}`, headers: who.headers, payload: { ...PAYING_CARD, ...card }, remoteAddress: who.address }),
    async getOrder(who, orderId) {
      const answer = await t.app.inject({ url: `/api/orders/${orderId}`, headers: who.headers });
      if (answer.statusCode !== 200) throw new Error(`order read failed: ${answer.statusCode} ${answer.body}`);
      return answer.json<Order>();
    },
    async riskRulesWithout(...signals) {
      const admin = await buyer('admin');
      const rules = DEFAULT_RISK_RULES.filter((rule) => !signals.includes(rule.signal));
      const answer = await t.app.inject({ method: 'PUT', url: '/api/admin/risk/rules', headers: admin.headers, payload: { rules } });
      if (answer.statusCode !== 200) throw new Error(`risk rules refused: ${answer.statusCode} ${answer.body}`);
    },
    async mailsTo(email) {
      // Receipts are written after the payment's answer: wait for those under way.
      await t.app.orders.allocator.drain();
      return db
        .select({ subject: mailOutbox.subject, text: mailOutbox.text, html: mailOutbox.html })
        .from(mailOutbox)
        .where(eq(mailOutbox.to, email))
        .orderBy(sql`${mailOutbox.id} desc`);
    },
  };
}
