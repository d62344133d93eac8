// The stock the lists show, with two instances on one PostgreSQL (issue 22): a sale on one shows on
// the other within a fraction of a second, by an announcement and a read of that game alone, and a
// quiet store, before or after a sale, reads nothing more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.ts';
import { buildTestApp, freshDatabase, type TestApp } from '../../test/helper.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the stock the lists show, with two instances on PostgreSQL', () => {
  let shared: Database & { url?: string };
  let second: Database;
  let a: OrdersTestApp;
  let b: TestApp;
  let buyer: Buyer;
  beforeAll(async () => {
    shared = await freshDatabase();
    a = await ordersTestApp({ database: shared });
    second = await openDatabase({ url: shared.url! });
    b = await buildTestApp({ database: second });
    buyer = await a.buyer();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await second?.close();
    await shared?.close();
  });

  const listedOn = async (t: TestApp, gameId: string) =>
    (await t.app.inject({ url: '/api/games?pageSize=100&sort=newest' })).json<{ items: Array<{ _id: string; stock: number }> }>().items.find((game) => game._id === gameId)?.stock;

  it('shows a sale on one instance on the other within half a second, reading only that game, and nothing more while quiet', async () => {
    const gameId = (await a.app.inject({ url: '/api/games?pageSize=1&sort=newest' })).json<{ items: Array<{ _id: string; stock: number }> }>().items[0]!._id;
    const before = (await listedOn(b, gameId))!;
    expect(before).toBeGreaterThan(2);
    const reads = { a: a.app.catalog.shownStock.reads, b: b.app.catalog.shownStock.reads };

    await a.order(buyer, gameId, 2);
    expect(await listedOn(a, gameId)).toBe(before - 2);
    const sold = Date.now();
    while ((await listedOn(b, gameId)) !== before - 2 && Date.now() - sold < 5000) await pause(20);
    const shownAfter = Date.now() - sold;
    console.log(`a sale on one instance showed on the other after ${shownAfter} ms`);
    expect(shownAfter).toBeLessThan(500);

    await pause(2500);
    expect(a.app.catalog.shownStock.reads).toBe(reads.a);
    expect(b.app.catalog.shownStock.reads).toBe(reads.b + 1);
  });
});
