import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

const OVERLAP_MS = 300;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the lists' stock between syncs", () => {
  let t: TestApp;
  let gameId: string;
  const listedStock = async () => (await t.app.inject({ url: `/api/games?pageSize=100&sort=newest` })).json<{ items: Array<{ _id: string; stock: number }> }>().items.find((game) => game._id === gameId)?.stock;

  beforeAll(async () => {
    t = await buildTestApp({ stockOverlapMs: OVERLAP_MS });
    await t.app.catalog.syncNow();
    const [game] = await queryRows<{ id: string }>(t.database.db, sql`select id from games where stock > 3 order by released_at desc limit 1`);
    gameId = game!.id;
  });
  afterAll(() => t?.close());

  it('reads nothing on a quiet store once the overlap after a sync has passed', async () => {
    await t.app.catalog.refreshStock();
    await pause(OVERLAP_MS + 100);
    await t.app.catalog.refreshStock();
    expect(await t.app.catalog.refreshStock()).toBe(0);
  });

  it('shows a stock change made through any instance at the next refresh', async () => {
    const before = (await listedStock())!;
    await t.database.db.execute(sql`update games set supplier_stock = supplier_stock - 1, updated_at = now() where id = ${gameId}`);
    expect(await t.app.catalog.refreshStock()).toBe(1);
    expect(await listedStock()).toBe(before - 1);
  });
});
