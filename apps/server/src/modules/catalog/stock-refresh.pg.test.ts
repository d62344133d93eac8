import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

const OVERLAP_MS = 300;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Two transactions at once need PostgreSQL (PGlite runs one at a time): a stock change whose
// transaction began before a refresh and committed after it is still picked up.
describe("the lists' stock between syncs, on PostgreSQL", () => {
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

  it('still sees a change whose transaction began before a refresh and committed after it', async () => {
    const before = (await listedStock())!;
    // Quiet first: the earlier tests' changes are behind the overlap.
    await pause(OVERLAP_MS + 100);
    await t.app.catalog.refreshStock();
    await pause(OVERLAP_MS + 100);
    expect(await t.app.catalog.refreshStock()).toBe(0);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`update games set supplier_stock = supplier_stock - 1, updated_at = now() where id = ${gameId}`);
      await held;
    });
    try {
      await pause(50);
      expect(await t.app.catalog.refreshStock()).toBe(0);
    } finally {
      release();
      await slow;
    }
    expect(await t.app.catalog.refreshStock()).toBe(1);
    expect(await listedStock()).toBe(before - 1);
  });
});
