// Answers to a signed-in caller must not be kept by a browser or proxy cache; the public catalogue may be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('caching of personal answers', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;
  let gameId: string;
  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
    gameId = await t.gameWithStock(5);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('forbids caching every authenticated answer, refusals included', async () => {
    const { order } = await t.order(buyer, gameId);
    for (const url of ['/api/users/profile', '/api/orders', `/api/orders/${order._id}`, '/api/purchases', '/api/notifications']) {
      const response = await t.app.inject({ method: 'GET', url, headers: buyer.headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const refused = await t.app.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization: 'Bearer not-a-token' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('leaves the public catalogue cacheable', async () => {
    const game = await t.app.inject({ method: 'GET', url: `/api/games/${gameId}` });
    expect(game.statusCode).toBe(200);
    expect(game.headers['cache-control']).toBeUndefined();
    const cover = await t.app.inject({ method: 'GET', url: `/media/covers/${gameId}.svg` });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['cache-control']).toBe('public, max-age=86400');
  });
});
