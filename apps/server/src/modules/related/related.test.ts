// "Customers also bought" (issue 31): bought together first, then the game's genre and platform; in
// stock, shown by the store, never the game itself, each once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListItem } from '@keystore/contract';
import { games } from '../catalog/schema.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('related games', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  let buyer: Buyer;
  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
    buyer = await t.buyer();
  });
  afterAll(() => t.close());

  const related = async (id: string) => {
    const answer = await t.app.inject({ url: `/api/games/${id}/related` });
    expect(answer.statusCode).toBe(200);
    return answer.json<GameListItem[]>();
  };

  it('puts what was bought together first, fills up with the genre and platform, and never repeats or shows the game', async () => {
    const [first, second, third] = [await t.gameWithStock(10, 300), await t.gameWithStock(10, 140), await t.gameWithStock(10, 60)];
    const placed = await t.placeOrder(buyer, [{ gameId: first, quantity: 1 }, { gameId: second, quantity: 1 }, { gameId: third, quantity: 1 }]);
    expect(placed.statusCode).toBe(201);
    expect((await t.pay(buyer, placed.json<{ order: { _id: string } }>().order._id)).statusCode).toBe(200);

    const row = await related(first);
    expect(row.slice(0, 2).map((game) => game._id).sort()).toEqual([second, third].sort());
    expect(row.length).toBeLessThanOrEqual(8);
    expect(row.map((game) => game._id)).not.toContain(first);
    expect(new Set(row.map((game) => game._id)).size).toBe(row.length);
    const own = (await t.app.inject({ url: `/api/games/${first}` })).json<GameListItem>();
    expect(row.slice(2).every((game) => game.platform === own.platform)).toBe(true);
    expect(row.every((game) => game.stock > 0)).toBe(true);
  });

  it('leaves out a game the owner hid or that ran out of stock', async () => {
    const [first, hidden, soldOut] = [await t.gameWithStock(10, 301), await t.gameWithStock(10, 141), await t.gameWithStock(1, 61)];
    const placed = await t.placeOrder(buyer, [{ gameId: first, quantity: 1 }, { gameId: hidden, quantity: 1 }, { gameId: soldOut, quantity: 1 }]);
    expect((await t.pay(buyer, placed.json<{ order: { _id: string } }>().order._id)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/admin/games/${hidden}`, headers: admin.headers, payload: { hidden: true } })).statusCode).toBe(200);
    await t.database.db.update(games).set({ supplierStock: 0 }).where(eq(games.id, soldOut));
    await t.app.catalog.syncNow();

    const ids = (await related(first)).map((game) => game._id);
    expect(ids).not.toContain(hidden);
    expect(ids).not.toContain(soldOut);
  });

  it('answers 404 for a game the store does not show', async () => {
    const answer = await t.app.inject({ url: '/api/games/zzzzzzzzzzzzzzzz/related' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ error: 'Game not found' });
  });
});
