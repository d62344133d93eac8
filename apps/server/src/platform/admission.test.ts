// The purchase path's gate: a bounded number of purchases at once, a short queue for new orders,
// payments never shed and served first; and, through the real app, a shed order is a 503 with
// Retry-After and the store-busy message, while a payment waits its turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMessages } from '@keystore/contract';
import { AdmissionGate } from './admission.ts';
import { ordersTestApp, type OrdersTestApp } from '../modules/orders/test-kit.ts';

describe('the admission gate', () => {
  it('lets in up to its limit, queues a few new orders, sheds the rest, and serves payments first', async () => {
    const gate = new AdmissionGate({ concurrent: 2, queued: 1, maxWaitMs: 10_000 });
    expect(await gate.enter(false)).toBe(true);
    expect(await gate.enter(false)).toBe(true);
    const queuedOrder = gate.enter(false);
    // The queue of new orders is full: the next one is shed at once.
    expect(await gate.enter(false)).toBe(false);
    // A payment is never shed and goes ahead of the waiting order.
    const payment = gate.enter(true);
    const order: string[] = [];
    void queuedOrder.then(() => order.push('order'));
    void payment.then(() => order.push('payment'));
    gate.leave();
    await payment;
    expect(order).toEqual(['payment']);
    gate.leave();
    expect(await queuedOrder).toBe(true);
    expect(order).toEqual(['payment', 'order']);
    expect(gate.shed).toBe(1);
  });

  it('sheds a new order that waited longer than it may', async () => {
    const gate = new AdmissionGate({ concurrent: 1, queued: 5, maxWaitMs: 5 });
    expect(await gate.enter(false)).toBe(true);
    expect(await gate.enter(false)).toBe(false);
    // The turn it gave up goes to nobody: the next one enters once the first leaves.
    gate.leave();
    expect(await gate.enter(false)).toBe(true);
  });
});

describe('shedding in the app', () => {
  let t: OrdersTestApp;

  beforeAll(async () => {
    t = await ordersTestApp();
  });
  afterAll(() => t.close());

  it('answers a shed order 503 with Retry-After and the store-busy message, and takes no stock', async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(10);
    // Every turn taken, as under a rush of buyers: the order waits its turn in the queue for at most 10 ms, then is shed.
    let taken = 0;
    while (await Promise.race([t.app.admission.enter(false), new Promise<boolean>((resolve) => setTimeout(resolve, 100, false))])) taken += 1;
    const answer = await t.placeOrder(buyer, [{ gameId, quantity: 1 }]);
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.json()).toEqual({ error: loadMessages.storeBusy });
    expect(await t.stockOf(gameId)).toBe(10);
    for (let n = 0; n < taken; n += 1) t.app.admission.leave();
    // With the rush over, the same order goes through.
    expect((await t.placeOrder(buyer, [{ gameId, quantity: 1 }])).statusCode).toBe(201);
  });
});
