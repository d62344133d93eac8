import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OVERLAP_MS, pause, stockRefreshApp } from './stock-refresh-kit.ts';

describe("the lists' stock between syncs", () => {
  const kit = stockRefreshApp();
  const { listedStock } = kit;

  it('reads nothing on a quiet store once the overlap after a sync has passed', async () => {
    const { t } = kit;
    await t.app.catalog.refreshStock();
    await pause(OVERLAP_MS + 100);
    await t.app.catalog.refreshStock();
    expect(await t.app.catalog.refreshStock()).toBe(0);
  });

  it('shows a stock change made through any instance at the next refresh', async () => {
    const { t, gameId } = kit;
    const before = (await listedStock())!;
    await t.database.db.execute(sql`update games set supplier_stock = supplier_stock - 1, updated_at = now() where id = ${gameId}`);
    expect(await t.app.catalog.refreshStock()).toBe(1);
    expect(await listedStock()).toBe(before - 1);
  });
});
