// The supplier's quantity and our reservations are two numbers (decision 013): a sync that says
// the supplier has 2 keys cannot make 2 keys reserved by an unpaid order sellable again, and no
// decline, expiry, delivery or refund makes a key sellable twice. Kinguin is a fake of its API on loopback.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrder, TestPaymentAnswer } from '@keystore/contract';
import { FakeKinguin, kinguinProduct } from '../../test/fake-kinguin.ts';
import { KinguinSupplier } from '../supplier/kinguin.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

describe('stock under supplier syncs', () => {
  let kinguin: FakeKinguin;
  let t: OrdersTestApp;
  let first: Buyer;
  let second: Buyer;
  let admin: Buyer;
  let edits = 0;

  beforeAll(async () => {
    kinguin = await new FakeKinguin().start();
    kinguin.products = Array.from({ length: 4 }, (_, n) => kinguinProduct(n, { qty: 2 }));
    const supplier = new KinguinSupplier({ apiUrl: kinguin.url, apiKey: kinguin.apiKey, timeoutMs: 2000, backoffMs: () => 10 });
    t = await ordersTestApp({ env: { SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey }, supplier });
    [first, second, admin] = [await t.buyer(), await t.buyer(), await t.buyer('admin')];
  });
  afterAll(async () => {
    await t.close();
    await kinguin.stop();
  });

  /** The supplier changes what it says of product `n` (and so the feed row is rewritten), then a full sync runs. */
  async function supplierSays(n: number, changes: Record<string, unknown>): Promise<void> {
    edits += 1;
    kinguin.products[n] = { ...kinguin.products[n], ...changes, updatedAt: new Date(Date.UTC(2026, 10, 1, 0, edits)).toISOString() };
    await t.app.catalog.syncNow({ full: true });
  }
  const idOf = async (n: number) => (await t.app.inject({ url: `/api/games/search?query=${encodeURIComponent(`Kinguin Test Game ${n}`)}` })).json<Array<{ _id: string; title: string }>>().find((game) => game.title === `Kinguin Test Game ${n}`)!._id;

  it('keeps keys reserved by an unpaid order off the shelf when a sync rewrites the supplier quantity', async () => {
    const gameId = await idOf(0);
    const { order } = await t.order(first, gameId, 2);
    expect(await t.stockOf(gameId)).toBe(0);

    // The supplier still has 2 (it has not sold them yet) and changes the price (within what the
    // buyer paid, €10.49, so the keys are still bought): the row is rewritten.
    await supplierSays(0, { price: 10.25 });
    expect(await t.stockOf(gameId)).toBe(0);
    expect((await t.placeOrder(second, [{ gameId, quantity: 1 }])).statusCode).toBe(409);

    // Paid and delivered: the supplier sold 2 and says 0; nothing is sellable, before or after the sync.
    expect((await t.pay(first, order._id)).json<TestPaymentAnswer>().deliveryStatus).toBe('Delivered');
    expect(await t.stockOf(gameId)).toBe(0);
    await supplierSays(0, { qty: 0 });
    expect(await t.stockOf(gameId)).toBe(0);
    expect((await t.placeOrder(second, [{ gameId, quantity: 1 }])).statusCode).toBe(409);
  });

  it('sells what the supplier added beside a reservation, and gives a declined reservation back once', async () => {
    const gameId = await idOf(1);
    const { order } = await t.order(first, gameId, 2);
    await supplierSays(1, { qty: 5 });
    expect(await t.stockOf(gameId)).toBe(3);

    const declined = await t.pay(first, order._id, { cardNumber: '4000 0000 0000 0002' });
    expect(declined.json<TestPaymentAnswer>().status).toBe('Declined');
    expect(await t.stockOf(gameId)).toBe(5);
    // Declined again (a retried callback): nothing more comes back.
    await t.pay(first, order._id, { cardNumber: '4000 0000 0000 0002' });
    await supplierSays(1, { price: 13 });
    expect(await t.stockOf(gameId)).toBe(5);
  });

  it('never sells more than the supplier has across syncs, expiries and refunds', async () => {
    const gameId = await idOf(2);
    const { order: held } = await t.order(first, gameId, 1);
    const { order: sold } = await t.order(second, gameId, 1);
    expect((await t.pay(second, sold._id)).json<TestPaymentAnswer>().deliveryStatus).toBe('Delivered');
    // The supplier had 2, sold 1 to us: it says 1. One is still reserved by the unpaid order.
    await supplierSays(2, { qty: 1 });
    expect(await t.stockOf(gameId)).toBe(0);

    // A delivered order's refund does not put its key back: it was bought and is sold once, ever.
    const refunded = await t.app.inject({ method: 'POST', url: `/api/admin/orders/${sold._id}/refund`, headers: admin.headers });
    expect(refunded.json<AdminOrder>().order.status).toBe('Refunded');
    expect(await t.stockOf(gameId)).toBe(0);

    // The unpaid order lapses: its key is sellable again, once.
    await t.database.db.execute(sql`update orders set expires_at = now() - interval '1 second' where id = ${held._id}`);
    await t.app.orderJobs.expire();
    expect(await t.stockOf(gameId)).toBe(1);
    await t.app.orderJobs.expire();
    await supplierSays(2, { price: 14 });
    expect(await t.stockOf(gameId)).toBe(1);
  });
});
