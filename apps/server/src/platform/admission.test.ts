// The purchase path's gate: a bounded number of purchases at once, a short queue for new orders,
// payments never shed and served first, a client that leaves gives its place back; and, through
// the real app, a shed order is a 503 with Retry-After and the store-busy message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMessages } from '@keystore/contract';
import { AdmissionGate, type Turn } from './admission.ts';
import { ordersTestApp, type OrdersTestApp } from '../modules/orders/test-kit.ts';

describe('the admission gate', () => {
  it('lets in up to its limit, queues a few new orders, sheds the rest, and serves payments first', async () => {
    const gate = new AdmissionGate({ concurrent: 2, queued: 1, maxWaitMs: 10_000 });
    const first = (await gate.enter(false))!;
    const second = (await gate.enter(false))!;
    expect(first && second).toBeTruthy();
    const queuedOrder = gate.enter(false);
    // The queue of new orders is full: the next one is shed at once.
    expect(await gate.enter(false)).toBeUndefined();
    // A payment is never shed and goes ahead of the waiting order.
    const payment = gate.enter(true);
    const order: string[] = [];
    void queuedOrder.then(() => order.push('order'));
    void payment.then(() => order.push('payment'));
    first.leave();
    first.leave(); // a second leave of the same turn changes nothing
    const paying = (await payment)!;
    expect(order).toEqual(['payment']);
    expect(gate.busy).toBe(2);
    second.leave();
    expect(await queuedOrder).toBeTruthy();
    expect(order).toEqual(['payment', 'order']);
    expect(gate.shed).toBe(1);
    paying.leave();
  });

  it('sheds a new order that waited longer than it may', async () => {
    const gate = new AdmissionGate({ concurrent: 1, queued: 5, maxWaitMs: 5 });
    const held = (await gate.enter(false))!;
    expect(await gate.enter(false)).toBeUndefined();
    // The turn it gave up goes to nobody: the next one enters once the first leaves.
    held.leave();
    expect(await gate.enter(false)).toBeTruthy();
  });

  it('gives back the place of a client that went away while it waited', async () => {
    const gate = new AdmissionGate({ concurrent: 1, queued: 5, maxWaitMs: 10_000 });
    const held = (await gate.enter(false))!;
    const gone = new AbortController();
    const waiting = gate.enter(true, gone.signal);
    gone.abort();
    expect(await waiting).toBeUndefined();
    held.leave();
    // Nobody holds a turn: the next request is let in at once, and the count is back to zero after it.
    const next = (await gate.enter(false)) as Turn;
    expect(gate.busy).toBe(1);
    next.leave();
    expect(gate.busy).toBe(0);
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
    // Every turn taken, as under a rush of buyers: the order waits its turn in the queue for a moment, then is shed.
    const taken: Turn[] = [];
    for (;;) {
      const turn = await Promise.race([t.app.admission.enter(false), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100))]);
      if (!turn) break;
      taken.push(turn);
    }
    const answer = await t.placeOrder(buyer, [{ gameId, quantity: 1 }]);
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.json()).toEqual({ error: loadMessages.storeBusy });
    expect(await t.stockOf(gameId)).toBe(10);
    for (const turn of taken) turn.leave();
    // With the rush over, the same order goes through, and every turn is given back after it.
    expect((await t.placeOrder(buyer, [{ gameId, quantity: 1 }])).statusCode).toBe(201);
    expect(t.app.admission.busy).toBe(0);
  });

  it('checks the session before taking a turn: a stranger is refused without waiting', async () => {
    const taken: Turn[] = [];
    for (;;) {
      const turn = await Promise.race([t.app.admission.enter(false), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100))]);
      if (!turn) break;
      taken.push(turn);
    }
    const answer = await t.app.inject({ method: 'POST', url: '/api/orders', payload: { items: [{ gameId: 'abc', quantity: 1 }] } });
    expect(answer.statusCode).toBe(401);
    for (const turn of taken) turn.leave();
  });
});
