// Every change of an order's state is recorded (decision 019): the timeline the back office shows,
// and the schema's own refusal of a state the table does not know.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

describe('the order timeline', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;
  let admin: Buyer;
  let gameId: string;

  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
    admin = await t.buyer('admin');
    gameId = await t.gameWithStock(50);
  });
  afterAll(() => t.close());

  /** The order's events as [kind, from, to, actor, reason]. */
  const timeline = async (orderId: string) =>
    (await t.app.orders.timeline(orderId)).map((event) => [event.kind, event.fromStatus, event.toStatus, event.actor, event.reason]);

  it('records a placed order and its declined payment', async () => {
    const { order } = await t.order(buyer, gameId);
    expect((await t.pay(buyer, order._id, { cardNumber: '4000 0000 0000 0002' })).json()).toMatchObject({ status: 'Declined' });
    const reason = (await t.getOrder(buyer, order._id)).declineReason;
    expect(await timeline(order._id)).toEqual([
      ['status', null, 'Awaiting payment', `customer:${buyer.userId}`, null],
      ['status', 'Awaiting payment', 'Declined', 'provider:test', reason],
      ['delivery', 'Pending', 'Not delivered', 'provider:test', reason],
    ]);
  });

  it('records payment, delivery and refund, each with who did it', async () => {
    const { order } = await t.order(buyer, gameId);
    expect((await t.pay(buyer, order._id)).json()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/orders/${order._id}/refund`, headers: admin.headers })).statusCode).toBe(200);
    expect(await timeline(order._id)).toEqual([
      ['status', null, 'Awaiting payment', `customer:${buyer.userId}`, null],
      ['status', 'Awaiting payment', 'Paid', 'provider:test', null],
      ['delivery', 'Pending', 'Delivered', 'system:delivery', null],
      ['status', 'Paid', 'Refunded', `admin:${admin.userId}`, null],
    ]);
  });

  it('records a cancel by the customer, once however often it is asked', async () => {
    const { order } = await t.order(buyer, gameId);
    for (let i = 0; i < 2; i += 1) expect((await t.app.inject({ method: 'POST', url: `/api/orders/${order._id}/cancel`, headers: buyer.headers })).statusCode).toBe(200);
    expect(await timeline(order._id)).toEqual([
      ['status', null, 'Awaiting payment', `customer:${buyer.userId}`, null],
      ['status', 'Awaiting payment', 'Cancelled', `customer:${buyer.userId}`, null],
      ['delivery', 'Pending', 'Not delivered', `customer:${buyer.userId}`, null],
    ]);
  });

  it('records one expiry per order when the job expires a batch', async () => {
    const placed = [await t.order(buyer, gameId), await t.order(buyer, gameId)].map(({ order }) => order._id);
    await t.database.db.execute(sql`update orders set expires_at = now() - interval '1 second' where status = 'Awaiting payment'`);
    expect(await t.app.orders.expireDue()).toBe(2);
    for (const orderId of placed)
      expect((await timeline(orderId)).slice(1)).toEqual([
        ['status', 'Awaiting payment', 'Expired', 'system:expiry', null],
        ['delivery', 'Pending', 'Not delivered', 'system:expiry', null],
      ]);
  });

  it('is enforced by the schema too: an unknown status or a negative stock is refused', async () => {
    const { order } = await t.order(buyer, gameId);
    await expect(t.database.db.execute(sql`update orders set status = 'Shipped' where id = ${order._id}`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`update orders set delivery_status = 'Lost' where id = ${order._id}`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`update games set supplier_stock = -1 where id = ${gameId}`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`update games set reserved = -1 where id = ${gameId}`)).rejects.toThrow();
    expect((await t.getOrder(buyer, order._id)).status).toBe('Awaiting payment');
  });
});
