import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, type AdminOrder, type Order, type Purchase, type User } from '@keystore/contract';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

describe('refunds', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;
  let admin: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  const refund = (who: Buyer | undefined, orderId: string) =>
    t.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/refund`, ...(who ? { headers: who.headers } : {}) });

  async function paidOrder(gameIndex: number): Promise<{ order: Order; gameId: string }> {
    const gameId = await t.gameWithStock(10, gameIndex);
    const { order } = await t.order(buyer, gameId, 2);
    expect((await t.pay(buyer, order._id)).statusCode).toBe(200);
    return { order, gameId };
  }

  it('is for admins only', async () => {
    const { order } = await paidOrder(1);
    expect((await refund(undefined, order._id)).statusCode).toBe(401);
    const customer = await refund(buyer, order._id);
    expect(customer.statusCode).toBe(403);
    expect(customer.json()).toEqual({ error: 'Only administrators can do this' });
    expect((await t.getOrder(buyer, order._id)).status).toBe('Paid');
  });

  it('marks a paid order Refunded and voids its delivered keys, whose stock stays sold', async () => {
    const { order, gameId } = await paidOrder(2);
    const [purchase] = (await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).json<Purchase[]>();
    const answer = await refund(admin, order._id);
    expect(answer.statusCode).toBe(200);
    const refunded = answer.json<AdminOrder>().order;
    expect(refunded).toMatchObject({ _id: order._id, status: 'Refunded', deliveryStatus: 'Delivered', lines: [{ quantity: 2, keysDelivered: 0 }] });
    expect(refunded.refundedAt).not.toBeNull();
    expect(await t.stockOf(gameId)).toBe(8);

    expect((await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).json<Purchase[]>().filter((p) => p.orderId === order._id)).toEqual([]);
    expect((await t.app.inject({ url: `/api/purchases/${purchase!._id}/key`, headers: buyer.headers })).statusCode).toBe(404);
    const voided = await t.database.db.execute(sql`select count(*)::int as n from product_keys where order_id = ${order._id} and voided_at is not null and void_reason = 'refunded'`);
    expect((voided as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(2);

    // Idempotent: the same refund again answers the order as it is and refunds nothing more.
    const again = await refund(admin, order._id);
    expect(again.statusCode).toBe(200);
    expect(again.json<AdminOrder>().order).toEqual(refunded);
  });

  it('takes a refunded order out of the profile figures', async () => {
    const someone = await t.buyer();
    const gameId = await t.gameWithStock(10, 3);
    const { order } = await t.order(someone, gameId);
    await t.pay(someone, order._id);
    await refund(admin, order._id);
    const user = (await t.app.inject({ url: '/api/users/profile', headers: someone.headers })).json<User>();
    expect(user).toMatchObject({ totalSpent: 0, totalGames: 0, membership: 'Key Newb' });
    expect(user.purchaseHistory).toMatchObject([{ _id: order._id, status: 'Refunded' }]);
  });

  it('refuses orders that are not paid, are unknown, or were paid more than 30 days ago', async () => {
    const gameId = await t.gameWithStock(10, 4);
    const { order: unpaid } = await t.order(buyer, gameId);
    const notPaid = await refund(admin, unpaid._id);
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.json()).toEqual({ error: adminMessages.refundNotAllowed });

    expect((await refund(admin, 'no-such-order')).statusCode).toBe(404);

    const { order: old } = await paidOrder(5);
    await t.database.db.execute(sql`update orders set paid_at = now() - interval '31 days' where id = ${old._id}`);
    const late = await refund(admin, old._id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: 'Orders can be refunded within 30 days of payment.' });
  });
});
