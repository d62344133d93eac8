import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order, Purchase } from '@keystore/contract';
import { paymentEvents } from './schema.ts';
import { FakeStripe, type StripeEvent } from '../../test/fake-stripe.ts';
import { DemoSupplier } from '../supplier/demo.ts';
import type { SupplierOrderLine } from '../supplier/supplier.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { STRIPE_WEBHOOK_PATH } from './stripe-webhook.ts';

describe('Stripe webhook', () => {
  const fake = new FakeStripe();
  let t: OrdersTestApp;
  let buyer: Buyer;
  let gameIndex = 0;

  beforeAll(async () => {
    await fake.start();
    t = await ordersTestApp({ env: fake.env() });
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
  });

  /** A new buyer's order of `quantity` keys of a game with 10 in stock, and its Checkout Session. */
  async function stripeOrder(quantity = 2): Promise<{ order: Order; sessionId: string; gameId: string }> {
    buyer = await t.buyer();
    gameIndex += 1;
    const gameId = await t.gameWithStock(10, gameIndex);
    const { order } = await t.order(buyer, gameId, quantity);
    return { order, sessionId: fake.sessionFor(order._id).id, gameId };
  }

  const deliver = (event: StripeEvent | Record<string, unknown>, secret?: string) => {
    const { payload, headers } = fake.signed(event, secret);
    return t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload });
  };
  const purchasesOf = async (who: Buyer) => (await t.app.inject({ url: '/api/purchases', headers: who.headers })).json<Purchase[]>();
  const receipts = async (who: Buyer) => (await t.mailsTo(who.email)).filter((mail) => mail.subject.includes('your keys'));
  const recorded = (eventId: string) => t.database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId));

  it('refuses a delivery whose signature does not match, and changes nothing', async () => {
    const { order, sessionId } = await stripeOrder();
    const event = fake.sessionEvent('checkout.session.completed', sessionId);
    const forged = await deliver(event, 'whsec_not_ours');
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: 'Invalid Stripe signature' });

    // A signature over other bytes: the body was altered on the way.
    const { headers } = fake.signed(event);
    const altered = JSON.stringify({ ...event, type: 'checkout.session.completed', data: { object: { ...event.data.object, client_reference_id: 'someone-else' } } });
    expect((await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload: altered })).statusCode).toBe(400);
    const unsigned = await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(event) });
    expect(unsigned.statusCode).toBe(400);

    expect((await t.getOrder(buyer, order._id)).status).toBe('Awaiting payment');
    expect(await purchasesOf(buyer)).toEqual([]);
    expect(await recorded(event.id)).toEqual([]);
  });

  it('delivers the keys when the checkout completes paid', async () => {
    const { order, sessionId } = await stripeOrder(2);
    const event = fake.sessionEvent('checkout.session.completed', sessionId);
    const answer = await deliver(event);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ received: true });
    // The webhook answers once the payment is recorded; the keys follow in the background.
    await t.app.orders.allocator.drain();
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered', paymentProvider: 'stripe' });
    expect(await purchasesOf(buyer)).toHaveLength(2);
    expect(await receipts(buyer)).toHaveLength(1);
    expect(await recorded(event.id)).toMatchObject([{ provider: 'stripe', type: 'checkout.session.completed', orderId: order._id }]);
  });

  it('acts once on the same event delivered 10 times, one after another and all at once', async () => {
    for (const concurrently of [false, true]) {
      const { order, sessionId, gameId } = await stripeOrder(2);
      const event = fake.sessionEvent('checkout.session.completed', sessionId);
      const deliveries = Array.from({ length: 10 }, () => () => deliver(event));
      const answers = concurrently ? await Promise.all(deliveries.map((send) => send())) : [];
      if (!concurrently) for (const send of deliveries) answers.push(await send());
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
      // The webhook answers once the payment is recorded; the keys follow in the background.
      await t.app.orders.allocator.drain();
      expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
      expect(await purchasesOf(buyer)).toHaveLength(2);
      expect(await receipts(buyer)).toHaveLength(1);
      expect(await t.stockOf(gameId)).toBe(8);
      expect(await recorded(event.id)).toHaveLength(1);
    }
  });

  it('does not pay an order when Stripe took another amount or currency, and tells the operator', async () => {
    const error = vi.spyOn(t.app.log, 'error');
    try {
      for (const wrong of [{ amount_total: 1 }, { currency: 'usd' }, { amount_total: null }]) {
        const { order, sessionId, gameId } = await stripeOrder(2);
        const cents = Math.round(order.amount * 100);
        const event = fake.sessionEvent('checkout.session.completed', sessionId, { session: wrong });
        const answer = await deliver(event);
        // 2xx: resending the same event would not change the sum, so Stripe must not retry it.
        expect(answer.statusCode).toBe(200);
        expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Awaiting payment', deliveryStatus: 'Pending' });
        expect(await purchasesOf(buyer)).toEqual([]);
        expect(await receipts(buyer)).toEqual([]);
        expect(await t.stockOf(gameId)).toBe(8);
        expect(await recorded(event.id)).toMatchObject([{ provider: 'stripe', type: 'checkout.session.completed', orderId: order._id }]);
        const received = { cents: event.data.object.amount_total, currency: event.data.object.currency };
        expect(error).toHaveBeenLastCalledWith(
          expect.objectContaining({ orderId: order._id, expected: { cents, currency: 'EUR' }, received }),
          expect.stringContaining('amount differs'),
        );
      }
    } finally {
      error.mockRestore();
    }
  });

  it('does not pay an order whose settled bank debit is of another amount', async () => {
    const { order, sessionId } = await stripeOrder(1);
    const event = fake.sessionEvent('checkout.session.async_payment_succeeded', sessionId, { session: { amount_total: Math.round(order.amount * 100) + 1 } });
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await t.getOrder(buyer, order._id)).status).toBe('Awaiting payment');
    expect(await purchasesOf(buyer)).toEqual([]);
  });

  it('pays an order when Stripe took exactly its amount, whatever the case of the currency code', async () => {
    const { order, sessionId } = await stripeOrder(2);
    const event = fake.sessionEvent('checkout.session.completed', sessionId, { session: { amount_total: Math.round(order.amount * 100), currency: 'EUR' } });
    expect((await deliver(event)).statusCode).toBe(200);
    // The webhook answers once the payment is recorded; the keys follow in the background.
    await t.app.orders.allocator.drain();
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    expect(await purchasesOf(buyer)).toHaveLength(2);
  });

  it('never undoes a payment: completed twice, expired after completed, failed after succeeded', async () => {
    const { order, sessionId, gameId } = await stripeOrder(2);
    expect((await deliver(fake.sessionEvent('checkout.session.completed', sessionId))).statusCode).toBe(200);
    const stock = await t.stockOf(gameId);
    for (const type of ['checkout.session.completed', 'checkout.session.expired', 'checkout.session.async_payment_failed'] as const) {
      expect((await deliver(fake.sessionEvent(type, sessionId))).statusCode).toBe(200);
    }
    // The webhook answers once the payment is recorded; the keys follow in the background.
    await t.app.orders.allocator.drain();
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    expect(await purchasesOf(buyer)).toHaveLength(2);
    expect(await receipts(buyer)).toHaveLength(1);
    expect(await t.stockOf(gameId)).toBe(stock);
  });

  it('waits for a bank debit to settle: completed unpaid, then async_payment_succeeded pays', async () => {
    const { order, sessionId } = await stripeOrder(1);
    expect((await deliver(fake.sessionEvent('checkout.session.completed', sessionId, { session: { payment_status: 'unpaid' }, intent: 'processing' }))).statusCode).toBe(200);
    expect((await t.getOrder(buyer, order._id)).status).toBe('Awaiting payment');
    expect(await purchasesOf(buyer)).toEqual([]);

    expect((await deliver(fake.sessionEvent('checkout.session.async_payment_succeeded', sessionId))).statusCode).toBe(200);
    // The webhook answers once the payment is recorded; the keys follow in the background.
    await t.app.orders.allocator.drain();
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    expect(await purchasesOf(buyer)).toHaveLength(1);
  });

  it('declines the order when the bank debit fails, and puts its keys back on the shelf', async () => {
    const { order, sessionId, gameId } = await stripeOrder(2);
    expect(await t.stockOf(gameId)).toBe(8);
    await deliver(fake.sessionEvent('checkout.session.completed', sessionId, { session: { payment_status: 'unpaid' }, intent: 'processing' }));
    expect((await deliver(fake.sessionEvent('checkout.session.async_payment_failed', sessionId))).statusCode).toBe(200);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Declined', deliveryStatus: 'Not delivered', declineReason: 'Your payment did not go through.' });
    expect(await t.stockOf(gameId)).toBe(10);
    expect(await purchasesOf(buyer)).toEqual([]);
  });

  it('expires the order when its checkout lapses unpaid', async () => {
    const { order, sessionId, gameId } = await stripeOrder(2);
    expect((await deliver(fake.sessionEvent('checkout.session.expired', sessionId))).statusCode).toBe(200);
    expect((await t.getOrder(buyer, order._id)).status).toBe('Expired');
    expect(await t.stockOf(gameId)).toBe(10);
  });

  it('answers 2xx to events it has no use for, so Stripe stops resending them', async () => {
    const other = { id: 'evt_other_type', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } };
    expect((await deliver(other)).statusCode).toBe(200);
    const { sessionId } = await stripeOrder(1);
    const foreign = fake.sessionEvent('checkout.session.completed', sessionId, { session: { client_reference_id: 'not-an-order-of-ours', metadata: {} } });
    expect((await deliver(foreign)).statusCode).toBe(200);
    expect(await purchasesOf(buyer)).toEqual([]);
  });
});

/** The supplier holding every order until the test lets it go (a slow supplier API). */
class HeldSupplier extends DemoSupplier {
  release: () => void = () => undefined;
  private held = new Promise<void>((resolve) => (this.release = resolve));
  override async placeOrder(orderExternalId: string, lines: SupplierOrderLine[]): Promise<{ orderId: string }> {
    await this.held;
    return super.placeOrder(orderExternalId, lines);
  }
}

describe('Stripe webhook with a slow supplier', () => {
  const fake = new FakeStripe();
  const supplier = new HeldSupplier();
  let t: OrdersTestApp;

  beforeAll(async () => {
    await fake.start();
    t = await ordersTestApp({ env: fake.env(), supplier });
  });
  afterAll(async () => {
    supplier.release();
    await t?.close();
    await fake.stop();
  });

  it('answers Stripe as soon as the payment is recorded, and the keys follow when the supplier answers', async () => {
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, await t.gameWithStock(10, 1), 2);
    const { payload, headers } = fake.signed(fake.sessionEvent('checkout.session.completed', fake.sessionFor(order._id).id));
    // The supplier has not answered (and will not until released): the webhook answers all the same.
    const answer = await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload });
    expect(answer.statusCode).toBe(200);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Pending' });

    supplier.release();
    await t.app.orders.allocator.drain();
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered', lines: [{ keysDelivered: 2 }] });
  });
});
