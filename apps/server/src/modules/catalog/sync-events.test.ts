// A sync tells what it changed on the event bus: a new price or supplier quantity of a known game,
// with the value before and after; a first sync (every game new) and a sync of the same feed tell nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AfterCommitEvents } from '../../platform/events.ts';
import { FakeKinguin, kinguinProduct } from '../../test/fake-kinguin.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { KinguinSupplier } from '../supplier/kinguin.ts';

describe('catalogue sync events', () => {
  let kinguin: FakeKinguin;
  let t: TestApp;
  const told: Array<['price-changed', AfterCommitEvents['price-changed']] | ['stock-changed', AfterCommitEvents['stock-changed']]> = [];

  beforeAll(async () => {
    kinguin = await new FakeKinguin().start();
    kinguin.products = Array.from({ length: 3 }, (_, n) => kinguinProduct(n, { price: 10, qty: 10 }));
    const supplier = new KinguinSupplier({ apiUrl: kinguin.url, apiKey: kinguin.apiKey, timeoutMs: 2000, backoffMs: () => 10 });
    t = await buildTestApp({ env: { SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey, PRICE_MARKUP_PERCENT: '5' }, supplier });
    t.app.events.on('price-changed', (change) => void told.push(['price-changed', change]));
    t.app.events.on('stock-changed', (change) => void told.push(['stock-changed', change]));
  });
  afterAll(async () => {
    await t.close();
    await kinguin.stop();
  });

  const idOf = async (n: number) =>
    (await t.app.inject({ url: `/api/games/search?query=${encodeURIComponent(`Kinguin Test Game ${n}`)}` }))
      .json<Array<{ _id: string; title: string }>>()
      .find((game) => game.title === `Kinguin Test Game ${n}`)!._id;

  it('tells nothing of games added by a sync, nor of a sync that changes nothing', async () => {
    expect((await t.app.catalog.syncNow({ full: true }))!.added).toBe(3);
    expect((await t.app.catalog.syncNow({ full: true }))!.unchanged).toBe(3);
    await t.app.events.drain();
    expect(told).toEqual([]);
  });

  it('tells each changed price and stock with the values before and after, and still counts the run', async () => {
    const [first, second] = [await idOf(0), await idOf(1)];
    kinguin.products[0] = { ...kinguin.products[0], price: 12, updatedAt: '2026-11-01T00:00:00Z' };
    kinguin.products[1] = { ...kinguin.products[1], qty: 3, updatedAt: '2026-11-01T00:00:00Z' };
    const outcome = await t.app.catalog.syncNow({ full: true });
    await t.app.events.drain();
    expect(outcome).toMatchObject({ added: 0, updated: 2, unchanged: 1 });
    expect(told).toHaveLength(2);
    expect(told).toEqual(
      expect.arrayContaining([
        ['price-changed', { gameId: first, from: 1050, to: 1260 }],
        ['stock-changed', { gameId: second, from: 10, to: 3 }],
      ]),
    );
  });
});
