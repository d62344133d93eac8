// A game's price history (issue 31): the database records a point at every change of a game's shown
// price or of whether it has stock, whoever writes the row, and the game page's series reads them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activationFor, lowestPriceBefore, type Game, type PriceSeries } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { SHOWN_PRICE, SHOWN_STOCK } from './game-stock.ts';

describe('price history', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  let buyer: Buyer;
  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
    buyer = await t.buyer();
    await t.riskRulesWithout('many-copies');
  });
  afterAll(() => t.close());

  const points = (gameId: string) =>
    queryRows<{ priceCents: number; inStock: boolean }>(t.database.db, sql`select price_cents as "priceCents", in_stock as "inStock" from price_points where game_id = ${gameId} order by id`);
  const series = async (gameId: string) => {
    const answer = await t.app.inject({ url: `/api/games/${gameId}/prices` });
    expect(answer.statusCode).toBe(200);
    return answer.json<PriceSeries>();
  };

  it('starts every game with its price, and answers the series with the current price last', async () => {
    const id = await t.gameWithStock(10, 1);
    const game = (await t.app.inject({ url: `/api/games/${id}` })).json<Game>();
    expect((await points(id)).at(-1)).toEqual({ priceCents: Math.round(game.price * 100), inStock: true });
    expect(game.activation).toEqual(activationFor(game.platform));
    const answer = await series(id);
    expect(answer.at(-1)!.price).toBe(game.price);
    expect(Date.parse(answer.at(-1)!.date)).toBeGreaterThan(Date.now() - 5000);
  });

  it("records the owner's new price, and the series shows the change", async () => {
    const id = await t.gameWithStock(10, 2);
    const before = (await t.app.inject({ url: `/api/games/${id}` })).json<Game>().price;
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/admin/games/${id}`, headers: admin.headers, payload: { priceOverride: 4.99 } });
    expect(patched.statusCode).toBe(200);
    expect((await points(id)).at(-1)).toEqual({ priceCents: 499, inStock: true });
    const prices = (await series(id)).map((point) => point.price);
    expect(prices.slice(-3)).toEqual([before, 4.99, 4.99]);
    expect(lowestPriceBefore(await series(id))).toBe(before);
  });

  it('records a sale only when it takes the last key, and never disagrees with what the store shows', async () => {
    const id = await t.gameWithStock(3, 3);
    const count = (await points(id)).length;
    await t.order(buyer, id, 2);
    expect(await points(id)).toHaveLength(count);
    await t.order(buyer, id, 1);
    expect((await points(id)).at(-1)!.inStock).toBe(false);

    // A seller cheaper than the house, written in the market columns as the offers module would.
    await t.database.db.execute(sql`update games set market_price_cents = 100, market_stock = 4 where id = ${id}`);
    const [shown] = await queryRows<{ price: number; stock: number }>(t.database.db, sql`select ${SHOWN_PRICE} as price, ${SHOWN_STOCK} as stock from games g where g.id = ${id}`);
    expect((await points(id)).at(-1)).toEqual({ priceCents: shown!.price, inStock: shown!.stock > 0 });
    expect(shown!.price).toBe(100);
  });

  it('answers 404 for an unknown game', async () => {
    const answer = await t.app.inject({ url: '/api/games/nope/prices' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ error: 'Game not found' });
  });
});
