import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrder, Order } from '@keystore/contract';
import { FakeStripe } from '../../test/fake-stripe.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { STRIPE_WEBHOOK_PATH } from './stripe-webhook.ts';

describe('paying with Stripe Checkout', () => {
  const fake = new FakeStripe();
  let t: OrdersTestApp;
  let buyer: Buyer;
  let admin: Buyer;

  beforeAll(async () => {
    await fake.start();
    t = await ordersTestApp({ env: { ...fake.env(), PUBLIC_URL: 'https://shop.example' } });
    buyer = await t.buyer();
    admin = await t.buyer('admin');
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
  });

  it('answers a new order with the Checkout Session made for it, priced line by line in euro cents', async () => {
    const first = await t.gameWithStock(10, 1);
    const second = await t.gameWithStock(10, 2);
    const before = Date.now();
    const placed = await t.placeOrder(buyer, [
      { gameId: first, quantity: 2 },
      { gameId: second, quantity: 1 },
    ]);
    expect(placed.statusCode).toBe(201);
    const { order, paymentUrl } = placed.json<{ order: Order; paymentUrl: string }>();
    expect(order).toMatchObject({ status: 'Awaiting payment', paymentProvider: 'stripe' });

    const [call, ...more] = fake.calls('POST /v1/checkout/sessions');
    expect(more).toEqual([]);
    const session = fake.sessionFor(order._id);
    expect(paymentUrl).toBe(session.url);
    expect(call!.idempotencyKey).toBe(`keystore-checkout-${order._id}`);
    // Form values arrive as text, as Stripe receives them.
    expect(call!.body).toMatchObject({
      mode: 'payment',
      client_reference_id: order._id,
      metadata: { orderId: order._id },
      customer_email: buyer.email,
      success_url: `https://shop.example/library?order=${order._id}&paid=1`,
      cancel_url: `https://shop.example/pay/${order._id}?cancelled=1`,
      line_items: order.lines.map((line) => ({
        quantity: String(line.quantity),
        price_data: { currency: 'eur', unit_amount: String(Math.round(line.unitPrice * 100)), product_data: { name: line.title } },
      })),
    });
    const expiresAt = Number(call!.body.expires_at) * 1000;
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 32 * 60_000);
    expect(session.amount_total).toBe(Math.round(order.amount * 100));
  });

  it("opens a guest's Checkout Session for its e-mail, coming back to the order's page by its link, and delivers on Stripe's word", async () => {
    const game = await t.gameWithStock(10, 11);
    const placed = await t.app.inject({ method: 'POST', url: '/api/orders', payload: { items: [{ gameId: game, quantity: 1 }], email: 'Stripe.Guest@gmail.com' } });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order, paymentUrl, token } = placed.json<{ order: Order; paymentUrl: string; token: string }>();
    const session = fake.sessionFor(order._id);
    expect(paymentUrl).toBe(session.url);
    expect(fake.calls('POST /v1/checkout/sessions').at(-1)!.body).toMatchObject({
      customer_email: 'stripe.guest@gmail.com',
      success_url: `https://shop.example/orders/${order._id}?token=${token}&paid=1`,
      cancel_url: `https://shop.example/pay/${order._id}?token=${token}&cancelled=1`,
    });
    const { payload, headers } = fake.signed(fake.sessionEvent('checkout.session.completed', session.id));
    expect((await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, payload, headers })).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    const seen = await t.app.inject({ url: `/api/orders/${order._id}?token=${token}` });
    expect(seen.json<Order>()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    const [receipt] = await t.mailsTo('stripe.guest@gmail.com');
    expect(receipt!.text).toContain(`https://shop.example/orders/${order._id}?token=`);
  });

  it('gives the keys back to the shelf and answers 503 when Stripe cannot open a checkout', async () => {
    const gameId = await t.gameWithStock(5, 3);
    const before = fake.calls('POST /v1/checkout/sessions').length;
    // The SDK retries a 5xx twice itself (same idempotency key); the third failure reaches the store.
    fake.faults.push({ status: 500 }, { status: 500 }, { status: 500 });
    const answer = await t.placeOrder(buyer, [{ gameId, quantity: 2 }]);
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ error: 'Payment is unavailable right now. Please try again in a few minutes.', reference: expect.any(String) });
    const attempts = fake.calls('POST /v1/checkout/sessions').slice(before);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
    expect(await t.stockOf(gameId)).toBe(5);
  });

  it('expires the Checkout Session of an order its buyer cancels, so it can no longer take money', async () => {
    const canceller = await t.buyer();
    const gameId = await t.gameWithStock(5, 4);
    const { order } = await t.order(canceller, gameId, 2);
    const answer = await t.app.inject({ method: 'POST', url: `/api/orders/${order._id}/cancel`, headers: canceller.headers });
    expect({ status: answer.statusCode, order: answer.json<{ status: string }>().status }).toEqual({ status: 200, order: 'Cancelled' });
    const session = fake.sessionFor(order._id);
    expect(fake.calls(`POST /v1/checkout/sessions/${session.id}/expire`)).toHaveLength(1);
    expect(session.status).toBe('expired');
    expect(await t.stockOf(gameId)).toBe(5);
  });

  it('refunds a paid order through Stripe once, for the payment intent of its checkout', async () => {
    const gameId = await t.gameWithStock(10, 4);
    const { order } = await t.order(buyer, gameId, 2);
    const session = fake.sessionFor(order._id);
    const { payload, headers } = fake.signed(fake.sessionEvent('checkout.session.completed', session.id));
    expect((await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload })).statusCode).toBe(200);
    expect((await t.getOrder(buyer, order._id)).status).toBe('Paid');

    const refund = () => t.app.inject({ method: 'POST', url: `/api/admin/orders/${order._id}/refund`, headers: admin.headers });
    const answer = await refund();
    expect(answer.statusCode).toBe(200);
    expect(answer.json<AdminOrder>().order.status).toBe('Refunded');
    // Idempotent: asked again, nothing more is refunded.
    expect((await refund()).statusCode).toBe(200);

    const refunds = fake.calls('POST /v1/refunds');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ idempotencyKey: `keystore-refund-${order._id}`, body: { payment_intent: session.payment_intent, metadata: { orderId: order._id } } });
    expect((await t.getOrder(buyer, order._id)).status).toBe('Refunded');
  });

  /** A new order of `quantity` keys, and a signed `completed` event paying it (`session` overrides what the event says). */
  async function paidThroughStripe(gameIndex: number, session: Record<string, unknown> = {}): Promise<{ order: Order; gameId: string; paymentIntent: string }> {
    const gameId = await t.gameWithStock(10, gameIndex);
    const { order } = await t.order(buyer, gameId, 1);
    const made = fake.sessionFor(order._id);
    const { payload, headers } = fake.signed(fake.sessionEvent('checkout.session.completed', made.id, { session }));
    expect((await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload })).statusCode).toBe(200);
    return { order, gameId, paymentIntent: made.payment_intent };
  }
  const refundCalls = (orderId: string) => fake.calls('POST /v1/refunds').filter((call) => (call.body.metadata as { orderId?: string }).orderId === orderId);

  it('finds the payment through the Checkout Session when the payment event named no payment intent', async () => {
    const { order, paymentIntent } = await paidThroughStripe(5, { payment_intent: null });
    expect((await t.getOrder(buyer, order._id)).status).toBe('Paid');
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/orders/${order._id}/refund`, headers: admin.headers })).statusCode).toBe(200);
    expect(fake.calls(`GET /v1/checkout/sessions/${fake.sessionFor(order._id).id}`)).toHaveLength(1);
    expect(refundCalls(order._id)).toMatchObject([{ body: { payment_intent: paymentIntent } }]);
  });

  it('takes "already refunded" from Stripe as done (a refund repeated after its idempotency key has lapsed)', async () => {
    const { order } = await paidThroughStripe(6);
    fake.faults.push({ status: 400, code: 'charge_already_refunded', message: 'Charge has already been refunded.' });
    const answer = await t.app.inject({ method: 'POST', url: `/api/admin/orders/${order._id}/refund`, headers: admin.headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.json<AdminOrder>().order.status).toBe('Refunded');
  });

  it('gives the money straight back when it arrives for an order that lapsed and whose keys were sold meanwhile', async () => {
    const gameId = await t.gameWithStock(10, 7);
    const { order } = await t.order(buyer, gameId, 1);
    const session = fake.sessionFor(order._id);
    // Stripe's session lives a little longer than the order's 30 minutes: our expiry job was first.
    await t.app.orders.markExpired(order._id);
    await t.gameWithStock(0, 7);
    const { payload, headers } = fake.signed(fake.sessionEvent('checkout.session.completed', session.id));
    expect((await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload })).statusCode).toBe(200);
    expect((await t.getOrder(buyer, order._id)).status).toBe('Refunded');
    expect(refundCalls(order._id)).toMatchObject([{ idempotencyKey: `keystore-refund-${order._id}`, body: { payment_intent: session.payment_intent } }]);
  });

  it('takes a customer who left Stripe\'s page back to the same Checkout Session while it is open', async () => {
    const gameId = await t.gameWithStock(10, 8);
    const { order, paymentUrl } = await t.order(buyer, gameId, 1);
    const session = fake.sessionFor(order._id);
    const made = fake.calls('POST /v1/checkout/sessions').length;
    const reopen = (who: Buyer = buyer) => t.app.inject({ method: 'POST', url: `/api/orders/${order._id}/checkout`, headers: who.headers });

    const answer = await reopen();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ paymentUrl });
    // Never a second session: that would be a second way to pay the same order.
    expect(fake.calls('POST /v1/checkout/sessions')).toHaveLength(made);
    expect(fake.calls(`GET /v1/checkout/sessions/${session.id}`)).toHaveLength(1);
    expect((await reopen(admin)).statusCode).toBe(404);

    // A bank debit settling, then a lapsed session: nothing left to reopen.
    session.status = 'complete';
    expect((await reopen()).json()).toEqual({ error: 'Your payment is being processed. Your keys will be in your library as soon as it is through.' });
    session.status = 'expired';
    const lapsed = await reopen();
    expect(lapsed.statusCode).toBe(409);
    expect(lapsed.json()).toEqual({ error: 'This order has expired: its 30 minutes to pay are over. Please place a new order.' });
    expect((await t.getOrder(buyer, order._id)).status).toBe('Awaiting payment');

    fake.faults.push({ status: 500 }, { status: 500 }, { status: 500 });
    expect((await reopen()).statusCode).toBe(503);
  });

  it('reopens no checkout for an order that is paid', async () => {
    const { order } = await paidThroughStripe(9);
    const answer = await t.app.inject({ method: 'POST', url: `/api/orders/${order._id}/checkout`, headers: buyer.headers });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual({ error: 'This order has already been paid.' });
  });

  it('keeps parsing JSON everywhere else: only the webhook route takes raw bytes', async () => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/orders', headers: buyer.headers, payload: { items: [] } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: 'Your order is empty' });
  });
});
