// What one customer and one address may hold unpaid at once, and cancelling an unpaid order
// (decision 016): a customer must not be able to empty the shelf for 30 minutes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderMessages, type CreateOrderAnswer, type Game, type Order } from '@keystore/contract';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

describe('what one customer and one address may hold unpaid', () => {
  let t: OrdersTestApp;

  beforeAll(async () => {
    t = await ordersTestApp();
  });
  afterAll(() => t.close());

  /** Places an order as the customer, from a client address of the test's choosing. */
  const place = (who: Buyer, items: Array<{ gameId: string; quantity: number }>, remoteAddress = '192.0.2.1') =>
    t.app.inject({ method: 'POST', url: '/api/orders', headers: who.headers, payload: { items }, remoteAddress });
  const answerOf = (response: { statusCode: number; json: () => unknown }) => ({ status: response.statusCode, body: response.json() });
  const cancel = (who: Buyer, orderId: string) => t.app.inject({ method: 'POST', url: `/api/orders/${orderId}/cancel`, headers: who.headers });
  const stockShown = async (gameId: string) => (await t.app.inject({ url: `/api/games/${gameId}` })).json<Game>().stock;

  it('lets a customer hold at most 3 unpaid orders; paying or cancelling one makes room', async () => {
    const hoarder = await t.buyer();
    const id = await t.gameWithStock(50, 8);
    const unpaid: Order[] = [];
    for (let n = 0; n < 3; n += 1) unpaid.push((await place(hoarder, [{ gameId: id, quantity: 1 }], '192.0.2.10')).json<CreateOrderAnswer>().order);
    const fourth = await place(hoarder, [{ gameId: id, quantity: 1 }], '192.0.2.10');
    expect(answerOf(fourth)).toEqual({ status: 409, body: { error: 'You have 3 orders waiting for payment. Pay or cancel one of them before placing another.' } });
    expect(await t.stockOf(id)).toBe(47);

    expect((await t.pay(hoarder, unpaid[0]!._id)).statusCode).toBe(200);
    expect((await place(hoarder, [{ gameId: id, quantity: 1 }], '192.0.2.10')).statusCode).toBe(201);
    expect((await place(hoarder, [{ gameId: id, quantity: 1 }], '192.0.2.10')).statusCode).toBe(409);
    expect((await cancel(hoarder, unpaid[1]!._id)).statusCode).toBe(200);
    expect((await place(hoarder, [{ gameId: id, quantity: 1 }], '192.0.2.10')).statusCode).toBe(201);
  });

  it('lets a customer hold at most 20 unpaid keys, over all their unpaid orders', async () => {
    const hoarder = await t.buyer();
    const [a, b, c] = [await t.gameWithStock(100, 20), await t.gameWithStock(100, 21), await t.gameWithStock(100, 22)];
    const tooBig = await place(hoarder, [{ gameId: a, quantity: 10 }, { gameId: b, quantity: 10 }, { gameId: c, quantity: 1 }], '192.0.2.20');
    expect(answerOf(tooBig)).toEqual({
      status: 409,
      body: { error: 'An order can hold at most 20 keys while it waits for payment. Please order fewer keys, and buy the rest once this order is paid.' },
    });
    expect((await place(hoarder, [{ gameId: a, quantity: 10 }, { gameId: b, quantity: 5 }], '192.0.2.20')).statusCode).toBe(201);
    const more = await place(hoarder, [{ gameId: c, quantity: 6 }], '192.0.2.20');
    expect(answerOf(more)).toEqual({
      status: 409,
      body: { error: 'At most 20 keys can wait for payment at once, and your unpaid orders already hold 15. Pay or cancel one of them, or order fewer keys.' },
    });
    expect((await place(hoarder, [{ gameId: c, quantity: 5 }], '192.0.2.20')).statusCode).toBe(201);
    expect([await t.stockOf(a), await t.stockOf(b), await t.stockOf(c)]).toEqual([90, 95, 95]);
  });

  it('lets a customer hold at most one line’s worth (10) of one game over several unpaid orders', async () => {
    const hoarder = await t.buyer();
    const id = await t.gameWithStock(7, 23);
    const { title } = await t.app.inject({ url: `/api/games/${id}` }).then((answer) => answer.json<Game>());
    expect((await place(hoarder, [{ gameId: id, quantity: 6 }], '192.0.2.30')).statusCode).toBe(201);
    const again = await place(hoarder, [{ gameId: id, quantity: 1 }, { gameId: id, quantity: 4 }], '192.0.2.30');
    expect(answerOf(again)).toEqual({
      status: 409,
      body: { error: `At most 10 keys of "${title}" can wait for payment at once, and your unpaid orders already hold 6. Pay or cancel that order first.` },
    });
    expect(await stockShown(id)).toBe(1);
  });

  it('lets every account placing from one address hold at most 10 unpaid orders together', async () => {
    const id = await t.gameWithStock(100, 30);
    const accounts = await t.buyers(11);
    for (const account of accounts.slice(0, 10)) expect((await place(account, [{ gameId: id, quantity: 1 }], '203.0.113.7')).statusCode).toBe(201);
    const eleventh = await place(accounts[10]!, [{ gameId: id, quantity: 1 }], '203.0.113.7');
    expect(answerOf(eleventh)).toEqual({ status: 409, body: { error: orderMessages.tooManyUnpaidOrdersFromAddress } });
    expect(eleventh.json()).toEqual({ error: 'Too many orders are waiting for payment from your network. Pay or cancel one of them, or try again once they have lapsed.' });
    expect(await t.stockOf(id)).toBe(90);
    // The same account from another address is someone else's network.
    expect((await place(accounts[10]!, [{ gameId: id, quantity: 1 }], '203.0.113.8')).statusCode).toBe(201);
  });

  it('lets every account placing from one address hold at most 60 unpaid keys together', async () => {
    const games = await Promise.all([31, 32, 33, 34].map((index) => t.gameWithStock(100, index)));
    const accounts = await t.buyers(4);
    for (const account of accounts.slice(0, 3)) {
      const placed = await place(account, [{ gameId: games[0]!, quantity: 10 }, { gameId: games[1]!, quantity: 10 }], '198.51.100.9');
      expect(placed.statusCode).toBe(201);
    }
    const fourth = await place(accounts[3]!, [{ gameId: games[2]!, quantity: 1 }], '198.51.100.9');
    expect(answerOf(fourth)).toEqual({
      status: 409,
      body: { error: 'Too many keys are waiting for payment from your network. Pay or cancel an order, or order fewer keys.' },
    });
    expect(await t.stockOf(games[2]!)).toBe(100);
  });

  it('counts an IPv6 client by its /64, the block one subscriber is handed', async () => {
    const id = await t.gameWithStock(100, 35);
    const accounts = await t.buyers(12);
    for (const [n, account] of accounts.slice(0, 10).entries()) {
      expect((await place(account, [{ gameId: id, quantity: 1 }], `2001:db8:0:1::${(n + 1).toString(16)}`)).statusCode).toBe(201);
    }
    expect((await place(accounts[10]!, [{ gameId: id, quantity: 1 }], '2001:db8:0:1:ffff:ffff:ffff:ffff')).statusCode).toBe(409);
    expect((await place(accounts[11]!, [{ gameId: id, quantity: 1 }], '2001:db8:0:2::1')).statusCode).toBe(201);
  });
});

describe('cancelling an unpaid order', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
  });
  afterAll(() => t.close());

  const cancel = (who: Buyer | undefined, orderId: string) =>
    t.app.inject({ method: 'POST', url: `/api/orders/${orderId}/cancel`, ...(who ? { headers: who.headers } : {}) });
  const stockShown = async (gameId: string) => (await t.app.inject({ url: `/api/games/${gameId}` })).json<Game>().stock;

  it('puts its keys back on the shelf at once, closes it for payment, and answers the same when asked again', async () => {
    const id = await t.gameWithStock(7, 3);
    const { order } = await t.order(buyer, id, 5);
    expect(await stockShown(id)).toBe(2);

    const cancelled = await cancel(buyer, order._id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<Order>()).toMatchObject({ _id: order._id, status: 'Cancelled', deliveryStatus: 'Not delivered' });
    expect(await stockShown(id)).toBe(7);

    const again = await cancel(buyer, order._id);
    expect({ status: again.statusCode, order: again.json<Order>().status }).toEqual({ status: 200, order: 'Cancelled' });
    expect(await stockShown(id)).toBe(7);
    const paid = await t.pay(buyer, order._id);
    expect({ status: paid.statusCode, body: paid.json() }).toEqual({
      status: 409,
      body: { error: 'You cancelled this order, so nothing was charged. Please place a new order.' },
    });
    expect(await stockShown(id)).toBe(7);
  });

  it('answers 404 for an order of someone else, and leaves that order alone', async () => {
    const id = await t.gameWithStock(7, 4);
    const { order } = await t.order(buyer, id, 2);
    const stranger = await t.buyer();
    const answer = await cancel(stranger, order._id);
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 404, body: { error: 'Order not found' } });
    expect((await t.getOrder(buyer, order._id)).status).toBe('Awaiting payment');
    expect(await stockShown(id)).toBe(5);
    expect((await cancel(undefined, order._id)).statusCode).toBe(401);
  });

  it('answers 409 for a paid order, whose keys stay sold', async () => {
    const id = await t.gameWithStock(7, 5);
    const { order } = await t.order(buyer, id, 1);
    expect((await t.pay(buyer, order._id)).statusCode).toBe(200);
    const answer = await cancel(buyer, order._id);
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({
      status: 409,
      body: { error: 'This order has already been paid, so it cannot be cancelled.' },
    });
    expect((await t.getOrder(buyer, order._id)).status).toBe('Paid');
  });

  it('shows a cancelled order as such in the order history', async () => {
    const id = await t.gameWithStock(7, 6);
    const { order } = await t.order(buyer, id, 1);
    await cancel(buyer, order._id);
    const profile = await t.app.inject({ url: '/api/users/profile', headers: buyer.headers });
    const entry = profile.json<{ purchaseHistory: Array<{ status: string }> }>().purchaseHistory[0];
    expect(entry?.status).toBe('Cancelled');
  });
});
