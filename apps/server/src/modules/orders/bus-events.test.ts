// What the orders module tells the rest of the app on the event bus (decision 022): each move of an
// order once, with its buyer, whoever else listens (notifications, later alerts and the back office).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

const ORDER_EVENTS = ['order-paid', 'order-delivered', 'order-declined', 'order-cancelled', 'order-expired', 'order-refunded'] as const;

describe('order events on the bus', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;
  let admin: Buyer;
  let gameId: string;
  const told: Array<[string, string, string | null]> = [];

  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
    admin = await t.buyer('admin');
    gameId = await t.gameWithStock(50);
    for (const name of ORDER_EVENTS) t.app.events.on(name, ({ orderId, userId }) => void told.push([name, orderId, userId]));
  });
  afterAll(() => t.close());

  /** The events told about `orderId` so far, once the subscribers under way are done. */
  const toldOf = async (orderId: string) => {
    await t.app.events.drain();
    return told.filter(([, id]) => id === orderId).map(([name, , userId]) => [name, userId]);
  };

  it('tells a payment, then the delivery; a refund later', async () => {
    const { order } = await t.order(buyer, gameId);
    expect((await t.pay(buyer, order._id)).json()).toMatchObject({ deliveryStatus: 'Delivered' });
    expect(await toldOf(order._id)).toEqual([
      ['order-paid', buyer.userId],
      ['order-delivered', buyer.userId],
    ]);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/orders/${order._id}/refund`, headers: admin.headers })).statusCode).toBe(200);
    expect((await toldOf(order._id)).at(-1)).toEqual(['order-refunded', buyer.userId]);
  });

  it('tells a declined payment, and a cancel once however often it is asked', async () => {
    const declined = (await t.order(buyer, gameId)).order._id;
    await t.pay(buyer, declined, { cardNumber: '4000 0000 0000 0002' });
    expect(await toldOf(declined)).toEqual([['order-declined', buyer.userId]]);

    const cancelled = (await t.order(buyer, gameId)).order._id;
    for (let i = 0; i < 2; i += 1) await t.app.inject({ method: 'POST', url: `/api/orders/${cancelled}/cancel`, headers: buyer.headers });
    expect(await toldOf(cancelled)).toEqual([['order-cancelled', buyer.userId]]);
  });

  it('tells each order the expiry job expires', async () => {
    const placed = [await t.order(buyer, gameId), await t.order(buyer, gameId)].map(({ order }) => order._id);
    await t.database.db.execute(sql`update orders set expires_at = now() - interval '1 second' where status = 'Awaiting payment'`);
    await t.app.orders.expireDue();
    for (const orderId of placed) expect(await toldOf(orderId)).toEqual([['order-expired', buyer.userId]]);
  });
});
