// Sessions as an attacker tries them: answers to a signed-in caller are never cached; the live
// stream opens with a one-use ticket, never the session token, whose URL lands in logs and proxies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationMessages } from '@keystore/contract';
import { openEventStream, type EventStream } from '../modules/notifications/test-kit.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../modules/orders/test-kit.ts';

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

describe('stream tickets', () => {
  let t: OrdersTestApp;
  let base: string;
  const streams: EventStream[] = [];
  const open = async (query: string, headers: Record<string, string> = {}) => {
    const stream = await openEventStream(`${base}/api/notifications/stream?${query}`, headers);
    streams.push(stream);
    return stream;
  };
  const ticketFor = async (who: Buyer) => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/notifications/stream-ticket', headers: who.headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    return answer.json<{ ticket: string; expiresInSeconds: number }>();
  };
  beforeAll(async () => {
    t = await ordersTestApp({ sync: false });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  it('opens the owner’s stream once, and only a stream', async () => {
    const buyer = await t.buyer();
    const { ticket, expiresInSeconds } = await ticketFor(buyer);
    expect(expiresInSeconds).toBe(60);
    const stream = await open(`ticket=${ticket}`);
    expect(stream.status).toBe(200);
    const personal = await t.app.notifications.publish({ title: 'Yours', text: 'only', kind: 'admin', userId: buyer.userId });
    expect(await stream.next()).toMatchObject({ _id: personal._id });
    // Used once: a copy from a log or a proxy opens nothing.
    expect((await open(`ticket=${ticket}`)).status).toBe(401);
    // A ticket is no bearer token, and a session token is no ticket.
    expect((await t.app.inject({ url: '/api/users/profile', headers: { authorization: `Bearer ${(await ticketFor(buyer)).ticket}` } })).statusCode).toBe(401);
    expect((await open(`ticket=${buyer.token}`)).status).toBe(401);
    // The session token in the query string opens nothing any more.
    const byToken = await fetch(`${base}/api/notifications/stream?token=${buyer.token}`);
    expect(byToken.status).toBe(401);
    expect(await byToken.json()).toEqual({ error: notificationMessages.streamAuthRequired });
  });

  it('opens nothing once its session has ended', async () => {
    const buyer = await t.buyer();
    const { ticket } = await ticketFor(buyer);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: buyer.headers })).statusCode).toBe(204);
    expect((await open(`ticket=${ticket}`)).status).toBe(401);
  });

  it('is asked for with a session only', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/notifications/stream-ticket' })).statusCode).toBe(401);
  });
});
