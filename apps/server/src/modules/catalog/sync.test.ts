import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListAnswer } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { buildTestApp, freshDatabase, type TestApp } from '../../test/helper.ts';

// Two instances of the store on one database, as when scaled out on PostgreSQL.
describe('catalogue sync across instances', () => {
  let database: Database;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    database = await freshDatabase();
    first = await buildTestApp({ database });
    second = await buildTestApp({ database });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await database.close();
  });

  const total = async (t: TestApp) => (await t.app.inject({ url: '/api/games' })).json<GameListAnswer>().total;

  it('runs one sync at a time across the cluster', async () => {
    const [a, b] = await Promise.all([first.app.catalog.syncNow(), second.app.catalog.syncNow()]);
    const ran = [a, b].filter((outcome) => outcome !== undefined);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.added).toBeGreaterThanOrEqual(300);
  });

  it('rebuilds the other instance\'s index when notified', async () => {
    const expected = await total(first.app.catalog.size ? first : second);
    await expect.poll(() => total(first), { timeout: 10_000 }).toBe(expected);
    await expect.poll(() => total(second), { timeout: 10_000 }).toBe(expected);
    expect(expected).toBeGreaterThanOrEqual(300);
  });
});
