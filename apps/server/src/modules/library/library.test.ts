import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Purchase, User } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { BUYER_PASSWORD, ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('the library', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
  });
  afterAll(() => t.close());

  const purchases = async (who: Buyer) => (await t.app.inject({ url: '/api/purchases', headers: who.headers })).json<Purchase[]>();
  const reveal = (who: Buyer | undefined, id: string) =>
    t.app.inject({ url: `/api/purchases/${id}/key`, ...(who ? { headers: who.headers } : {}), remoteAddress: '203.0.113.9' });

  it('is empty before the first purchase and needs a login', async () => {
    expect(await purchases(buyer)).toEqual([]);
    expect((await t.app.inject({ url: '/api/purchases' })).statusCode).toBe(401);
  });

  it('lists one purchase per delivered key, newest first, with its game as the catalogue lists it', async () => {
    const first = await t.gameWithStock(10, 1);
    const second = await t.gameWithStock(10, 2);
    const older = (await t.order(buyer, first, 2)).order;
    await t.pay(buyer, older._id);
    const newer = (await t.order(buyer, second)).order;
    await t.pay(buyer, newer._id);
    // An order that is not paid gives nothing.
    await t.order(buyer, second);

    const list = await purchases(buyer);
    expect(list.map((purchase) => purchase.orderId)).toEqual([newer._id, older._id, older._id]);
    const game = (await t.app.inject({ url: `/api/games/${second}` })).json();
    const { description: _d, systemRequirements: _s, releaseDate: _r, activation: _a, ...item } = game;
    expect(list[0]!.product).toEqual(item);
    expect(Number.isNaN(Date.parse(list[0]!.purchasedAt))).toBe(false);
  });

  it('reveals a key to its owner only, and records every reveal', async () => {
    const [purchase] = await purchases(buyer);
    const shown = await reveal(buyer, purchase!._id);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.json<{ key: string }>().key).toMatch(/^DEMO-/);

    const stranger = await t.buyer();
    const refused = await reveal(stranger, purchase!._id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: 'Key not found' });
    expect((await reveal(buyer, 'no-such-key')).statusCode).toBe(404);
    expect((await reveal(undefined, purchase!._id)).statusCode).toBe(401);

    await reveal(buyer, purchase!._id);
    const reveals = await queryRows<{ user_id: string; ip: string }>(t.database.db, sql`select user_id, ip from key_reveals where key_id = ${purchase!._id}`);
    expect(reveals).toEqual([
      { user_id: buyer.userId, ip: '203.0.113.9' },
      { user_id: buyer.userId, ip: '203.0.113.9' },
    ]);
  });
});

describe('profile figures and account deletion', () => {
  let t: OrdersTestApp;

  beforeAll(async () => {
    t = await ordersTestApp();
    // A buyer here buys 4 keys of one title, which the default risk rules hold for review.
    await t.riskRulesWithout('many-copies');
  });
  afterAll(() => t.close());

  const profile = async (who: Buyer) => (await t.app.inject({ url: '/api/users/profile', headers: who.headers })).json<User>();

  it('counts what was paid and kept, the keys delivered, the tier earned, and lists the history newest first', async () => {
    const buyer = await t.buyer();
    expect(await profile(buyer)).toMatchObject({ totalSpent: 0, totalGames: 0, membership: 'Key Newb', purchaseHistory: [] });

    const gameId = await t.gameWithStock(50, 3);
    // €25 a key: two orders of two reach exactly the 100 euro where Bundle Raider starts.
    await t.database.db.execute(sql`update games set price_cents = 2500 where id = ${gameId}`);
    const paidOrders: string[] = [];
    for (const tier of ['Key Newb', 'Bundle Raider']) {
      const { order } = await t.order(buyer, gameId, 2);
      expect(order.amount).toBe(50);
      await t.pay(buyer, order._id);
      paidOrders.push(order._id);
      expect(await profile(buyer)).toMatchObject({ totalSpent: paidOrders.length * 50, totalGames: paidOrders.length * 2, membership: tier });
    }
    const declined = (await t.order(buyer, gameId)).order;
    await t.pay(buyer, declined._id, { cardNumber: '4000000000000002' });
    const waiting = (await t.order(buyer, gameId)).order;

    const user = await profile(buyer);
    // Declined and unpaid orders count for nothing.
    expect(user).toMatchObject({ totalSpent: 100, totalGames: 4, membership: 'Bundle Raider' });
    expect(user.purchaseHistory.map((entry) => entry._id)).toEqual([waiting._id, declined._id, ...paidOrders.reverse()]);
    expect(user.purchaseHistory[0]).toEqual({
      _id: waiting._id,
      items: waiting.items,
      image: waiting.image,
      date: waiting.createdAt,
      status: 'Awaiting payment',
      deliveryStatus: 'Pending',
      currency: 'EUR',
      amount: waiting.amount,
    });
    expect(user.purchaseHistory[1]).toMatchObject({ status: 'Declined', deliveryStatus: 'Not delivered' });
    expect(user.purchaseHistory[2]).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
  });

  it('keeps the orders of a deleted account, anonymised, with their keys', async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(10, 4);
    const { order } = await t.order(buyer, gameId, 2);
    await t.pay(buyer, order._id);
    const deleted = await t.app.inject({ method: 'DELETE', url: '/api/users/profile', headers: buyer.headers, payload: { currentPassword: BUYER_PASSWORD } });
    expect(deleted.statusCode).toBe(200);

    const [kept] = await queryRows<{ user_id: string | null; status: string; amount_cents: number }>(
      t.database.db,
      sql`select user_id, status, amount_cents from orders where id = ${order._id}`,
    );
    expect(kept).toEqual({ user_id: null, status: 'Paid', amount_cents: Math.round(order.amount * 100) });
    const keys = await queryRows<{ user_id: string | null }>(t.database.db, sql`select user_id from product_keys where order_id = ${order._id}`);
    expect(keys).toEqual([{ user_id: null }, { user_id: null }]);
  });
});
