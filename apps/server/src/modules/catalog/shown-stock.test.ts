// The stock the lists show, on the embedded database: one process sees every move itself, so a
// sale shows at once and a quiet store, before or after a sale, reads no stock at all (issue 22).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the stock the lists show, on the embedded database', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;
  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
  });
  afterAll(() => t.close());

  const listed = async (gameId: string) =>
    (await t.app.inject({ url: '/api/games?pageSize=100&sort=newest' })).json<{ items: Array<{ _id: string; stock: number }> }>().items.find((game) => game._id === gameId)?.stock;

  it('shows a sale at once, and reads no stock while the store is quiet, before or after it', async () => {
    const watched = (await t.app.inject({ url: '/api/games?pageSize=1&sort=newest' })).json<{ items: Array<{ _id: string }> }>().items[0]!._id;
    const before = (await listed(watched))!;
    expect(before).toBeGreaterThan(2);
    const reads = t.app.catalog.shownStock.reads;
    await pause(1500);
    expect(t.app.catalog.shownStock.reads).toBe(reads);

    await t.order(buyer, watched, 2);
    expect(await listed(watched)).toBe(before - 2);
    await pause(2500);
    expect(t.app.catalog.shownStock.reads).toBe(reads);
  });
});
