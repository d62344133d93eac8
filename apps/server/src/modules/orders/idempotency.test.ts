// POST /api/orders with an Idempotency-Key (decision 015): a checkout repeated after a lost
// answer gets the order it placed, and its keys are reserved once. Runs on PostgreSQL too with
// DATABASE_URL set, where the racing requests truly overlap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateOrderAnswer, Order } from '@keystore/contract';
import { FakeStripe } from '../../test/fake-stripe.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

type Items = Array<{ gameId: string; quantity: number }>;

function placeWithKey(t: OrdersTestApp, buyer: Buyer, key: string, items: Items) {
  return t.app.inject({ method: 'POST', url: '/api/orders', headers: { ...buyer.headers, 'idempotency-key': key }, payload: { items } });
}

describe('placing an order with an Idempotency-Key', () => {
  let t: OrdersTestApp;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    buyer = await t.buyer();
  });
  afterAll(() => t.close());

  const ordersOf = async (who: Buyer) => (await t.app.inject({ url: '/api/orders', headers: who.headers })).json<Order[]>();

  it('answers the same key and items with the same order and payment page, and takes the stock once', async () => {
    const gameId = await t.gameWithStock(10, 1);
    const someone = await t.buyer();
    const first = await placeWithKey(t, someone, 'checkout-1', [{ gameId, quantity: 2 }]);
    const again = await placeWithKey(t, someone, 'checkout-1', [{ gameId, quantity: 2 }]);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    const placed = first.json<CreateOrderAnswer>();
    expect(again.json<CreateOrderAnswer>()).toEqual(placed);
    expect(placed.paymentUrl).toBe(`/pay/${placed.order._id}`);
    expect(await t.stockOf(gameId)).toBe(8);
    expect((await ordersOf(someone)).map((order) => order._id)).toEqual([placed.order._id]);
  });

  it('takes the same games listed another way as the same request', async () => {
    const [a, b] = [await t.gameWithStock(10, 2), await t.gameWithStock(10, 3)];
    const first = await placeWithKey(t, buyer, 'reordered', [{ gameId: a, quantity: 2 }, { gameId: b, quantity: 1 }]);
    const again = await placeWithKey(t, buyer, 'reordered', [{ gameId: b, quantity: 1 }, { gameId: a, quantity: 1 }, { gameId: a, quantity: 1 }]);
    expect(again.statusCode).toBe(201);
    expect(again.json<CreateOrderAnswer>().order._id).toBe(first.json<CreateOrderAnswer>().order._id);
    expect([await t.stockOf(a), await t.stockOf(b)]).toEqual([8, 9]);
  });

  it('refuses the same key with other items with a 422, and reserves nothing for them', async () => {
    const gameId = await t.gameWithStock(10, 4);
    const other = await t.gameWithStock(10, 5);
    expect((await placeWithKey(t, buyer, 'one-attempt', [{ gameId, quantity: 1 }])).statusCode).toBe(201);
    for (const items of [[{ gameId, quantity: 2 }], [{ gameId: other, quantity: 1 }], [{ gameId, quantity: 1 }, { gameId: other, quantity: 1 }]]) {
      const reused = await placeWithKey(t, buyer, 'one-attempt', items);
      expect({ status: reused.statusCode, body: reused.json() }).toEqual({ status: 422, body: { error: 'This Idempotency-Key was already used for another order' } });
    }
    expect([await t.stockOf(gameId), await t.stockOf(other)]).toEqual([9, 10]);
  });

  it('places one order for requests with one key that race each other, whether keys are plenty or one is left', async () => {
    for (const [stock, index] of [[100, 6], [1, 10]] as const) {
      const gameId = await t.gameWithStock(stock, index);
      const racer = await t.buyer();
      const answers = await Promise.all(Array.from({ length: 5 }, () => placeWithKey(t, racer, 'double-click', [{ gameId, quantity: 1 }])));
      expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, 201, 201]);
      const ids = new Set(answers.map((answer) => answer.json<CreateOrderAnswer>().order._id));
      expect(ids.size).toBe(1);
      expect((await ordersOf(racer)).map((order) => order._id)).toEqual([...ids]);
      expect(await t.stockOf(gameId)).toBe(stock - 1);
    }
  });

  it('keeps keys apart per customer, and places a new order for each request without a key', async () => {
    const gameId = await t.gameWithStock(10, 7);
    const [ann, bob] = await t.buyers(2);
    const annOrder = (await placeWithKey(t, ann!, 'shared-key', [{ gameId, quantity: 1 }])).json<CreateOrderAnswer>();
    const bobOrder = (await placeWithKey(t, bob!, 'shared-key', [{ gameId, quantity: 1 }])).json<CreateOrderAnswer>();
    expect(bobOrder.order._id).not.toBe(annOrder.order._id);
    await t.order(ann!, gameId);
    await t.order(ann!, gameId);
    expect(await ordersOf(ann!)).toHaveLength(3);
    expect(await t.stockOf(gameId)).toBe(6);
  });

  it('answers a key whose order is no longer awaiting payment with what became of it', async () => {
    const gameId = await t.gameWithStock(10, 8);
    const placed = (await placeWithKey(t, buyer, 'paid-already', [{ gameId, quantity: 1 }])).json<CreateOrderAnswer>();
    expect((await t.pay(buyer, placed.order._id)).statusCode).toBe(200);
    const again = await placeWithKey(t, buyer, 'paid-already', [{ gameId, quantity: 1 }]);
    expect({ status: again.statusCode, body: again.json() }).toEqual({ status: 409, body: { error: 'This order has already been paid.' } });
    expect(await t.stockOf(gameId)).toBe(9);
  });

  it('refuses a key that is empty, too long or not printable ASCII, and documents the header', async () => {
    const gameId = await t.gameWithStock(10, 9);
    for (const key of ['', 'x'.repeat(201), 'clé', 'tab\there']) {
      const answer = await placeWithKey(t, buyer, key, [{ gameId, quantity: 1 }]);
      expect({ status: answer.statusCode, body: answer.json() }).toEqual({
        status: 400,
        body: { error: 'The Idempotency-Key header must be 1 to 200 printable ASCII characters' },
      });
    }
    expect((await placeWithKey(t, buyer, `${'k'.repeat(199)}~`, [{ gameId, quantity: 1 }])).statusCode).toBe(201);
    expect(await t.stockOf(gameId)).toBe(9);

    const docs = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, { post?: { parameters?: unknown[] } }> }>();
    expect(docs.paths['/api/orders']?.post?.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'idempotency-key', required: false }));
  });
});

describe('an Idempotency-Key with Stripe Checkout', () => {
  const fake = new FakeStripe();
  let t: OrdersTestApp;
  let buyer: Buyer;

  beforeAll(async () => {
    await fake.start();
    t = await ordersTestApp({ env: { ...fake.env(), PUBLIC_URL: 'https://shop.example' } });
    buyer = await t.buyer();
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
  });

  it('answers a repeated request with the same Checkout Session, never a second one', async () => {
    const gameId = await t.gameWithStock(10, 1);
    const sessionsBefore = fake.calls('POST /v1/checkout/sessions').length;
    const first = (await placeWithKey(t, buyer, 'stripe-attempt', [{ gameId, quantity: 1 }])).json<CreateOrderAnswer>();
    const again = await placeWithKey(t, buyer, 'stripe-attempt', [{ gameId, quantity: 1 }]);
    expect(again.statusCode).toBe(201);
    expect(again.json<CreateOrderAnswer>()).toEqual(first);
    expect(first.paymentUrl).toBe(fake.sessionFor(first.order._id).url);
    expect(fake.calls('POST /v1/checkout/sessions').length - sessionsBefore).toBe(1);
  });

  it('frees the key of an order whose checkout could not be opened: the same attempt tried again places a new order', async () => {
    const gameId = await t.gameWithStock(5, 2);
    // The SDK retries a 5xx twice itself; the third failure reaches the store.
    fake.faults.push({ status: 500 }, { status: 500 }, { status: 500 });
    const failed = await placeWithKey(t, buyer, 'stripe-down', [{ gameId, quantity: 2 }]);
    expect(failed.statusCode).toBe(503);
    expect(await t.stockOf(gameId)).toBe(5);
    const retried = await placeWithKey(t, buyer, 'stripe-down', [{ gameId, quantity: 2 }]);
    expect(retried.statusCode).toBe(201);
    expect(retried.json<CreateOrderAnswer>().order.status).toBe('Awaiting payment');
    expect(await t.stockOf(gameId)).toBe(3);
  });
});
