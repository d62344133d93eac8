// The stock-refresh tests' setup, on the embedded database and on PostgreSQL alike: an app whose
// refresh reaches OVERLAP_MS back, synced, with one game in stock to watch in the lists.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

export const OVERLAP_MS = 300;
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface StockRefreshKit {
  readonly t: TestApp;
  readonly gameId: string;
  /** The watched game's stock as the first page of the newest games lists it. */
  listedStock(): Promise<number | undefined>;
}

/** Builds the app before the suite's tests (and closes it after them); read `t` and `gameId` inside a test. */
export function stockRefreshApp(): StockRefreshKit {
  let t: TestApp | undefined;
  let gameId: string | undefined;
  beforeAll(async () => {
    t = await buildTestApp({ stockOverlapMs: OVERLAP_MS });
    await t.app.catalog.syncNow();
    const [game] = await queryRows<{ id: string }>(t.database.db, sql`select id from games where stock > 3 order by released_at desc limit 1`);
    gameId = game!.id;
  });
  afterAll(() => t?.close());
  return {
    get t() {
      return t!;
    },
    get gameId() {
      return gameId!;
    },
    async listedStock() {
      const answer = await t!.app.inject({ url: `/api/games?pageSize=100&sort=newest` });
      return answer.json<{ items: Array<{ _id: string; stock: number }> }>().items.find((game) => game._id === gameId)?.stock;
    },
  };
}
