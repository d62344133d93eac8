// Keys from the Kinguin supplier (a fake of its API on loopback): a supplier that fails or has not
// handed over every key yet leaves the order paid and pending, the customer is told once, the
// retry job delivers later, and the supplier is asked for one order however often we retry.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderMessages, type AdminOrder, type Purchase, type TestPaymentAnswer, type User } from '@keystore/contract';
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
    kinguin.products = Array.from({ length: 10 }, (_, n) => kinguinProduct(n));
    supplier = new SlowKinguin({ apiUrl: kinguin.url, apiKey: kinguin.apiKey, timeoutMs: 300, backoffMs: () => 10 });
    t = await ordersTestApp({ env: { SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey }, supplier });
    buyer = await t.buyer();
    admin = await t.buyer('admin');
    // These deliveries buy 3 and 4 keys of one title, which the default risk rules hold for review.
    await t.riskRulesWithout('many-copies', 'third-paid-order-24h');
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
    expect(receipt!.subject).toMatch(/your keys are ready$/);
    const keys = await Promise.all(
      (await library()).map(async (purchase) => (await t.app.inject({ url: `/api/purchases/${purchase._id}/key`, headers: buyer.headers })).json<{ key: string }>().key),
    );
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(receipt!.text).not.toContain(key);

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

  describe("when the supplier's price moves after the order was placed", () => {
    /** The fake supplier's price of the n-th product changes; `sync`: the catalogue hears of it too. */
    async function supplierPrice(n: number, price: number, options: { sync: boolean }): Promise<void> {
      kinguin.products[n] = { ...kinguin.products[n], price, updatedAt: new Date().toISOString() };
      if (options.sync) await t.app.catalog.syncNow();
    }
    const placedPrices = (orderId: string) => kinguin.orders.get(orderId)?.products.map((line) => line.price);
    const priceAsks = () => kinguin.requests.filter((request) => request.method === 'GET' && request.url.startsWith('/v2/products/')).length;

    it('buys the last keys at the price a sync picked up after ordering, when it is still within what the buyer paid', async () => {
      const gameId = await t.gameWithStock(2, 4);
      const { order } = await t.order(buyer, gameId, 2);
      // One cent more at the supplier; the buyer paid 5 % over the old price.
      await supplierPrice(4, 14, { sync: true });
      const paid = await t.pay(buyer, order._id);
      expect(paid.json<TestPaymentAnswer>()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
      expect(placedPrices(order._id)).toEqual([14]);
      expect((await t.getOrder(buyer, order._id)).lines[0]!.keysDelivered).toBe(2);
    });

    it('asks the supplier its price when it refuses the one the catalogue knows, and buys at it', async () => {
      const gameId = await t.gameWithStock(2, 5);
      const { order } = await t.order(buyer, gameId, 2);
      const asked = priceAsks();
      await supplierPrice(5, 15, { sync: false });
      const paid = await t.pay(buyer, order._id);
      expect(paid.json<TestPaymentAnswer>()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
      expect(priceAsks()).toBe(asked + 1);
      expect(placedPrices(order._id)).toEqual([15]);
    });

    it('refunds the line the supplier now sells above what the buyer paid, delivers the rest, and says why', async () => {
      const kept = await t.gameWithStock(5, 6);
      const dearer = await t.gameWithStock(5, 7);
      const before = (await t.app.inject({ url: '/api/users/profile', headers: buyer.headers })).json<User>().totalSpent;
      const placed = await t.placeOrder(buyer, [{ gameId: kept, quantity: 1 }, { gameId: dearer, quantity: 2 }]);
      const { order } = placed.json<{ order: { _id: string; lines: Array<{ gameId: string; unitPrice: number }> } }>();
      const keptPrice = order.lines.find((line) => line.gameId === kept)!.unitPrice;
      // Kinguin product 7 was €16.99; the buyer paid €17.84 a key. Now €20.
      await supplierPrice(7, 20, { sync: false });
      const paid = await t.pay(buyer, order._id);
      expect(paid.json<TestPaymentAnswer>()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
      expect(placedPrices(order._id)).toEqual([kinguinProduct(6).price]);
      const [mail] = (await t.mailsTo(buyer.email)).filter((sent) => sent.subject.endsWith('partly refunded'));
      expect(mail!.text).toContain('€35.68');
      expect(mail!.text).toMatch(/Why: Our supplier's price rose after you ordered, above what you paid: Kinguin Test Game 7 \(now €20\.00 at our supplier, you paid €17\.84\)/);
      // The refunded keys are back on the shelf; the profile counts only what the buyer kept.
      expect(await t.stockOf(dearer)).toBe(5);
      const after = (await t.app.inject({ url: '/api/users/profile', headers: buyer.headers })).json<User>().totalSpent;
      expect(after - before).toBeCloseTo(keptPrice, 2);
      expect((await library()).filter((purchase) => purchase.orderId === order._id)).toHaveLength(1);
      // The retry job finds nothing left to do.
      expect(await retryNow(order._id)).toBe(0);
    });

    it('refunds the whole order when none of it can be bought without a loss', async () => {
      const gameId = await t.gameWithStock(3, 8);
      const { order } = await t.order(buyer, gameId, 1);
      await supplierPrice(8, 30, { sync: true });
      const paid = await t.pay(buyer, order._id);
      expect(paid.json<TestPaymentAnswer>()).toMatchObject({ status: 'Paid', deliveryStatus: 'Not delivered', message: orderMessages.paymentRefundedPriceRose });
      expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Refunded', deliveryStatus: 'Not delivered' });
      expect(kinguin.orders.has(order._id)).toBe(false);
      const [mail] = (await t.mailsTo(buyer.email)).filter((sent) => sent.subject.endsWith(': refunded'));
      expect(mail!.text).toContain('Kinguin Test Game 8 (now €30.00 at our supplier');
      // The reservation ended; the sync had set the supplier's quantity meanwhile.
      expect(await t.stockOf(gameId)).toBe(kinguinProduct(8).qty);
    });
  });

  it('refunds a paid order still without keys a day after payment, once, and tells the buyer', async () => {
    const gameId = await t.gameWithStock(4, 9);
    const { order } = await t.order(buyer, gameId, 1);
    kinguin.faults.push({ status: 503 }, { status: 503 }, { status: 503 });
    await t.pay(buyer, order._id);
    expect(await t.app.orderJobs.refundLongUndelivered()).toBe(0);
    await t.database.db.execute(sql`update orders set paid_at = now() - interval '25 hours' where id = ${order._id}`);
    expect(await t.app.orderJobs.refundLongUndelivered()).toBe(1);
    expect(await t.app.orderJobs.refundLongUndelivered()).toBe(0);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Refunded', deliveryStatus: 'Not delivered' });
    const refunds = (await t.mailsTo(buyer.email)).filter((sent) => sent.subject.endsWith(`${order._id.slice(0, 8).toUpperCase()}: refunded`));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.text).toContain('within 24 hours of your payment');
    expect(await t.stockOf(gameId)).toBe(4);
  });
});
