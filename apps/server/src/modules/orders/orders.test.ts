import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_TTL_MINUTES, type CreateOrderAnswer, type Game, type Order } from '@keystore/contract';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

describe('placing an order', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
  });
  afterAll(() => t.close());

  const game = async (id: string) => (await t.app.inject({ url: `/api/games/${id}` })).json<Game>();

  it('is priced by the server from the catalogue, whatever price the client sends, and holds the stock for 30 minutes', async () => {
    const first = await t.gameWithStock(20, 1);
    const second = await t.gameWithStock(20, 2);
    const [a, b] = [await game(first), await game(second)];
    const answer = await t.placeOrder(buyer, [
      { gameId: first, quantity: 2, price: 0.01, unitPrice: 0.01 },
      { gameId: second, quantity: 1, price: 0 },
    ]);
    expect(answer.statusCode).toBe(201);
    const { order, paymentUrl } = answer.json<CreateOrderAnswer>();
    expect(paymentUrl).toBe(`/pay/${order._id}`);
    expect(order).toMatchObject({
      status: 'Awaiting payment',
      deliveryStatus: 'Pending',
      currency: 'EUR',
      paymentProvider: 'test',
      paidAt: null,
      amount: Math.round((a.price * 2 + b.price) * 100) / 100,
      items: `${a.title} × 2, ${b.title}`,
      image: a.image,
      lines: [
        { gameId: first, title: a.title, platform: a.platform, quantity: 2, unitPrice: a.price, amount: Math.round(a.price * 200) / 100, keysDelivered: 0 },
        { gameId: second, title: b.title, quantity: 1, unitPrice: b.price, amount: b.price, keysDelivered: 0 },
      ],
    });
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBe(ORDER_TTL_MINUTES * 60_000);
    expect(order.date).toBe(order.createdAt);
    // The game page reads its stock from the database, so it shows the reservation at once.
    expect((await game(first)).stock).toBe(18);
    expect((await game(second)).stock).toBe(19);
  });

  it('shows the reserved and the returned keys in the catalogue lists too, without a rebuild', async () => {
    const id = await t.gameWithStock(12, 4);
    const listed = async () => {
      await t.app.catalog.refreshStock();
      const search = await t.app.inject({ url: `/api/games/search?query=${encodeURIComponent((await game(id)).title)}` });
      return search.json<Game[]>().find((hit) => hit._id === id)?.stock;
    };
    expect(await listed()).toBe(12);
    const { order } = await t.order(buyer, id, 5);
    expect(await listed()).toBe(7);
    const declined = await t.pay(buyer, order._id, { cardNumber: '4000 0000 0000 0002' });
    expect(declined.json()).toMatchObject({ status: 'Declined' });
    expect(await listed()).toBe(12);
  });

  it('merges a game listed twice into one line', async () => {
    const id = await t.gameWithStock(10, 3);
    const answer = await t.placeOrder(buyer, [
      { gameId: id, quantity: 1 },
      { gameId: id, quantity: 2 },
    ]);
    expect(answer.statusCode).toBe(201);
    expect(answer.json<CreateOrderAnswer>().order.lines).toMatchObject([{ gameId: id, quantity: 3 }]);
    expect(await t.stockOf(id)).toBe(7);
  });

  it('answers 409 naming the game when the stock cannot cover the order, and takes nothing', async () => {
    const plenty = await t.gameWithStock(50, 4);
    const scarce = await t.gameWithStock(2, 5);
    const { title } = await game(scarce);
    const answer = await t.placeOrder(buyer, [
      { gameId: plenty, quantity: 5 },
      { gameId: scarce, quantity: 3 },
    ]);
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual({ error: `Only 2 keys of "${title}" are left` });
    expect(await t.stockOf(plenty)).toBe(50);
    expect(await t.stockOf(scarce)).toBe(2);

    await t.gameWithStock(0, 5);
    expect((await t.placeOrder(buyer, [{ gameId: scarce, quantity: 1 }])).json()).toEqual({ error: `"${title}" is out of stock` });
  });

  it('refuses malformed orders with the contract messages', async () => {
    const id = await t.gameWithStock(10, 6);
    const cases: Array<[unknown, number, string]> = [
      [[], 400, 'Your order is empty'],
      [[{ gameId: id, quantity: 0 }], 400, 'Quantity must be a whole number from 1 to 10'],
      [[{ gameId: id, quantity: 11 }], 400, 'Quantity must be a whole number from 1 to 10'],
      [[{ gameId: id, quantity: 1.5 }], 400, 'Quantity must be a whole number from 1 to 10'],
      [[{ gameId: id, quantity: 6 }, { gameId: id, quantity: 6 }], 400, 'Quantity must be a whole number from 1 to 10'],
      [Array.from({ length: 51 }, (_, n) => ({ gameId: `g${n}`, quantity: 1 })), 400, 'An order can hold at most 50 different games'],
      [[{ gameId: 'no-such-game', quantity: 1 }], 404, 'Game not found'],
    ];
    for (const [items, status, error] of cases) {
      const answer = await t.app.inject({ method: 'POST', url: '/api/orders', headers: buyer.headers, payload: { items } });
      expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status, body: { error } });
    }
    expect(await t.stockOf(id)).toBe(10);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/orders', payload: { items: [{ gameId: id, quantity: 1 }] } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lists the caller’s orders newest first and shows an order to its owner only', async () => {
    const someone = await t.buyer();
    const id = await t.gameWithStock(10, 7);
    const older = (await t.order(someone, id)).order;
    const newer = (await t.order(someone, id, 2)).order;
    const list = await t.app.inject({ url: '/api/orders', headers: someone.headers });
    expect(list.json<Order[]>().map((order) => order._id)).toEqual([newer._id, older._id]);
    expect((await t.getOrder(someone, older._id)).lines[0]!.quantity).toBe(1);

    const stranger = await t.buyer();
    const peek = await t.app.inject({ url: `/api/orders/${older._id}`, headers: stranger.headers });
    expect(peek.statusCode).toBe(404);
    expect(peek.json()).toEqual({ error: 'Order not found' });
    expect((await t.app.inject({ url: '/api/orders', headers: stranger.headers })).json()).toEqual([]);
    expect((await t.app.inject({ url: '/api/orders' })).statusCode).toBe(401);
  });
});

describe('an unpaid order', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
  });
  afterAll(() => t.close());

  const lapse = (orderId: string) => t.database.db.execute(sql`update orders set expires_at = now() - interval '1 second' where id = ${orderId}`);

  it('expires after 30 minutes through the job, and its stock goes back', async () => {
    const id = await t.gameWithStock(10, 1);
    const { order } = await t.order(buyer, id, 3);
    const fresh = (await t.order(buyer, id, 1)).order;
    expect(await t.stockOf(id)).toBe(6);
    await lapse(order._id);

    expect(await t.app.orderJobs.expire()).toBe(1);
    expect(await t.stockOf(id)).toBe(9);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Expired', deliveryStatus: 'Not delivered' });
    expect((await t.getOrder(buyer, fresh._id)).status).toBe('Awaiting payment');
    // A second run finds nothing more to do: the stock is returned once.
    expect(await t.app.orderJobs.expire()).toBe(0);
    expect(await t.stockOf(id)).toBe(9);
  });

  it('is found expired when someone tries to pay it before the job ran', async () => {
    const id = await t.gameWithStock(5, 2);
    const { order } = await t.order(buyer, id, 2);
    await lapse(order._id);
    const paid = await t.pay(buyer, order._id);
    expect(paid.statusCode).toBe(409);
    expect(paid.json()).toEqual({ error: 'This order has expired: its 30 minutes to pay are over. Please place a new order.' });
    expect(await t.stockOf(id)).toBe(5);
    expect((await t.getOrder(buyer, order._id)).status).toBe('Expired');
  });
});
