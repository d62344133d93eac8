// Keys from the Kinguin supplier (a fake of its API on loopback): a supplier that fails or has not
// handed over every key yet leaves the order paid and pending, the customer is told once, the
// retry job delivers later, and the supplier is asked for one order however often we retry.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrder, Purchase, TestPaymentAnswer } from '@keystore/contract';
import { FakeKinguin, kinguinProduct } from '../../test/fake-kinguin.ts';
import { KinguinSupplier } from '../supplier/kinguin.ts';
import type { SupplierKey } from '../supplier/supplier.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

/** Kinguin, with a switch to keep back the last keys of every order (a supplier still processing). */
class SlowKinguin extends KinguinSupplier {
  withhold = 0;
  override async orderKeys(orderId: string): Promise<SupplierKey[]> {
    const keys = await super.orderKeys(orderId);
    return keys.slice(0, Math.max(0, keys.length - this.withhold));
  }
}

describe('keys from the Kinguin supplier', () => {
  let kinguin: FakeKinguin;
  let supplier: SlowKinguin;
  let t: OrdersTestApp;
  let buyer: Buyer;
  let admin: Buyer;

  beforeAll(async () => {
    kinguin = await new FakeKinguin().start();
    kinguin.products = Array.from({ length: 6 }, (_, n) => kinguinProduct(n));
    supplier = new SlowKinguin({ apiUrl: kinguin.url, apiKey: kinguin.apiKey, timeoutMs: 300, backoffMs: () => 10 });
    t = await ordersTestApp({ env: { SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey }, supplier });
    buyer = await t.buyer();
    admin = await t.buyer('admin');
  });
  afterAll(async () => {
    await t.close();
    await kinguin.stop();
  });

  /** The retry job's run, with the order's retry time brought forward to now. */
  async function retryNow(orderId: string): Promise<number> {
    await t.database.db.execute(sql`update orders set next_allocation_at = now() where id = ${orderId}`);
    return t.app.orderJobs.retryUndelivered(true);
  }
  const supplierOrdersFor = (orderId: string) => kinguin.requests.filter((request) => request.method === 'POST' && (request.body as { orderExternalId?: string }).orderExternalId === orderId);
  const library = async () => (await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).json<Purchase[]>();

  it('keeps a paid order pending while the supplier is down, mails the delay once, and delivers through the retry job', async () => {
    const gameId = await t.gameWithStock(10, 1);
    const { order } = await t.order(buyer, gameId, 2);
    kinguin.faults.push({ status: 503 }, { status: 503 }, { status: 503 });
    const paid = await t.pay(buyer, order._id);
    expect(paid.json<TestPaymentAnswer>()).toMatchObject({ status: 'Paid', deliveryStatus: 'Pending', message: expect.stringContaining('on their way') });
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Pending', lines: [{ keysDelivered: 0 }] });
    const [delayed] = await t.mailsTo(buyer.email);
    expect(delayed!.subject).toMatch(/delivery is delayed$/);
    expect(await library()).toEqual([]);

    // Still down at the next run: still pending, and no second delay mail.
    kinguin.faults.push({ status: 503 }, { status: 503 }, { status: 503 });
    expect(await retryNow(order._id)).toBe(0);
    expect((await t.mailsTo(buyer.email)).filter((mail) => mail.subject.endsWith('delivery is delayed'))).toHaveLength(1);

    expect(await retryNow(order._id)).toBe(1);
    const delivered = await t.getOrder(buyer, order._id);
    expect(delivered).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered', lines: [{ keysDelivered: 2 }] });
    const [receipt] = await t.mailsTo(buyer.email);
    expect(receipt!.subject).toMatch(/your keys$/);
    const keys = await Promise.all(
      (await library()).map(async (purchase) => (await t.app.inject({ url: `/api/purchases/${purchase._id}/key`, headers: buyer.headers })).json<{ key: string }>().key),
    );
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(receipt!.text).toContain(key);

    // One order at the supplier, placed with our order id, at the supplier's price.
    const placed = [...kinguin.orders.entries()].filter(([externalId]) => externalId === order._id);
    expect(placed).toHaveLength(1);
    expect(placed[0]![1].products).toEqual([{ productId: kinguinProduct(1).productId, qty: 2, price: kinguinProduct(1).price }]);
    expect(supplierOrdersFor(order._id).length).toBe(7);
  });

  it('delivers the keys the supplier has, and the rest later from the same supplier order', async () => {
    const gameId = await t.gameWithStock(10, 2);
    const { order } = await t.order(buyer, gameId, 3);
    supplier.withhold = 1;
    const paid = await t.pay(buyer, order._id);
    expect(paid.json<TestPaymentAnswer>().deliveryStatus).toBe('Pending');
    expect((await t.getOrder(buyer, order._id)).lines[0]!.keysDelivered).toBe(2);

    supplier.withhold = 0;
    expect(await retryNow(order._id)).toBe(1);
    expect((await t.getOrder(buyer, order._id)).lines[0]!.keysDelivered).toBe(3);
    // The retry placed the order again; the supplier answered with the one it had.
    expect(supplierOrdersFor(order._id)).toHaveLength(2);
    expect([...kinguin.orders.keys()].filter((externalId) => externalId === order._id)).toHaveLength(1);
    expect((await library()).filter((purchase) => purchase.orderId === order._id)).toHaveLength(3);
  });

  it('refunds a paid order that never got its keys: the stock goes back and the job leaves it alone', async () => {
    const gameId = await t.gameWithStock(10, 3);
    const { order } = await t.order(buyer, gameId, 4);
    kinguin.faults.push({ status: 503 }, { status: 503 }, { status: 503 });
    await t.pay(buyer, order._id);
    expect(await t.stockOf(gameId)).toBe(6);

    const refunded = await t.app.inject({ method: 'POST', url: `/api/admin/orders/${order._id}/refund`, headers: admin.headers });
    expect(refunded.json<AdminOrder>().order).toMatchObject({ status: 'Refunded', deliveryStatus: 'Not delivered' });
    expect(await t.stockOf(gameId)).toBe(10);
    expect(await retryNow(order._id)).toBe(0);
    expect(supplierOrdersFor(order._id)).toHaveLength(3);
    expect(kinguin.orders.has(order._id)).toBe(false);
  });
});
