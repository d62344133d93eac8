import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OVERLAP_MS, pause, stockRefreshApp } from './stock-refresh-kit.ts';

// Two transactions at once need PostgreSQL (PGlite runs one at a time): a stock change whose
// transaction began before a refresh and committed after it is still picked up.
describe("the lists' stock between syncs, on PostgreSQL", () => {
  const kit = stockRefreshApp();
  const { listedStock } = kit;

  it('still sees a change whose transaction began before a refresh and committed after it', async () => {
    const { t, gameId } = kit;
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
