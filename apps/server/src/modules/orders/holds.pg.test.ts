// Placements racing past the unpaid-hold caps (decision 016), over real HTTP so the requests truly
// overlap, on PostgreSQL (the embedded database runs one statement at a time, so it cannot race).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderMessages } from '@keystore/contract';
import { politely } from '../../test/cluster-kit.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

describe.skipIf(!process.env.DATABASE_URL)('placements racing past the unpaid-hold caps (PostgreSQL)', () => {
  let t: OrdersTestApp;
  let base: string;

  beforeAll(async () => {
    // Each test calls from its own address (X-Forwarded-For through one trusted proxy).
    t = await ordersTestApp({ env: { TRUST_PROXY: '1' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  /** Places an order over HTTP from `address`; a busy store's 503 is asked again, as the web app does. */
  async function place(buyer: Buyer, items: Array<{ gameId: string; quantity: number }>, address: string) {
    const response = await politely(`${base}/api/orders`, {
      method: 'POST',
      headers: { ...buyer.headers, 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ items }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('lets one customer’s 10 simultaneous orders hold 3 orders, never more', async () => {
    const buyer = await t.buyer();
    const id = await t.gameWithStock(100, 1);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => place(buyer, [{ gameId: id, quantity: 1 }], '192.0.2.1')));
    expect(outcomes.filter((o) => o.status === 201)).toHaveLength(3);
    expect(outcomes.filter((o) => o.status === 409).map((o) => o.body)).toEqual(Array(7).fill({ error: orderMessages.tooManyUnpaidOrders }));
    expect(await t.stockOf(id)).toBe(97);
  });

  it('lets one customer’s simultaneous orders of 8 keys each hold 16 keys, never more than 20', async () => {
    const buyer = await t.buyer();
    const games = await Promise.all([2, 3, 4, 5, 6, 7].map((index) => t.gameWithStock(100, index)));
    const outcomes = await Promise.all(games.map((gameId) => place(buyer, [{ gameId, quantity: 8 }], '192.0.2.2')));
    expect(outcomes.filter((o) => o.status === 201)).toHaveLength(2);
    expect(outcomes.filter((o) => o.status === 409)).toHaveLength(4);
    const left = await Promise.all(games.map((gameId) => t.stockOf(gameId)));
    expect(left.reduce((sum, stock) => sum + (100 - stock), 0)).toBe(16);
  });

  it('lets 15 accounts ordering at once from one address hold 10 orders, never more', async () => {
    const buyers = await t.buyers(15);
    const id = await t.gameWithStock(100, 8);
    const outcomes = await Promise.all(buyers.map((buyer) => place(buyer, [{ gameId: id, quantity: 1 }], '203.0.113.9')));
    expect(outcomes.filter((o) => o.status === 201)).toHaveLength(10);
    expect(outcomes.filter((o) => o.status === 409).map((o) => o.body)).toEqual(Array(5).fill({ error: orderMessages.tooManyUnpaidOrdersFromAddress }));
    expect(await t.stockOf(id)).toBe(90);
  });
});
