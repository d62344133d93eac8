// Stripe and the risk desk (issue 29): every Checkout Session is authorised only (manual capture); the
// webhook reads Radar's risk level, the card's fingerprint and 3-D Secure from the charge, captures an
// accepted order at once, holds a risky one with the money authorised, captures it when the owner
// approves and releases it when the owner cancels; the highest risk is released at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { riskMessages, type AdminOrder } from '@keystore/contract';
import { FakeStripe } from '../../test/fake-stripe.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { STRIPE_WEBHOOK_PATH } from './stripe-webhook.ts';

describe('Stripe payments and the risk desk', () => {
  const fake = new FakeStripe();
  let t: OrdersTestApp;
  let admin: Buyer;
  let gameIndex = 0;

  beforeAll(async () => {
    await fake.start();
    t = await ordersTestApp({ env: { ...fake.env(), PUBLIC_URL: 'https://shop.example' } });
    admin = await t.buyer('admin');
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
  });

  /** A buyer's order paid at Stripe's checkout with a card Radar rates `riskLevel`; answers it once the webhook has taken the event. */
  async function paidAtStripe(riskLevel: 'normal' | 'elevated' | 'highest', threeDSecure = false) {
    const buyer = await t.buyer();
    gameIndex += 1;
    const gameId = await t.gameWithStock(10, gameIndex);
    const { order } = await t.order(buyer, gameId, 1);
    fake.cardFor(order._id, { riskLevel, threeDSecure });
    const session = fake.sessionFor(order._id);
    const { payload, headers } = fake.signed(fake.sessionEvent('checkout.session.completed', session.id));
    expect((await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload })).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    return { buyer, gameId, order, intent: session.payment_intent };
  }
  const decide = (orderId: string, verdict: 'approve' | 'cancel') =>
    t.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/${verdict}`, headers: admin.headers, payload: { note: '' } });

  it('makes every session authorised only, and captures an accepted payment at once', async () => {
    const { buyer, order, intent } = await paidAtStripe('normal');
    expect(fake.calls('POST /v1/checkout/sessions').at(-1)!.body).toMatchObject({ payment_intent_data: { capture_method: 'manual', metadata: { orderId: order._id } } });
    expect(fake.calls(`POST /v1/payment_intents/${intent}/capture`)).toMatchObject([{ idempotencyKey: `keystore-capture-${order._id}` }]);
    expect(fake.intentStatus(intent)).toBe('succeeded');
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
  });

  it('holds an elevated-risk payment uncaptured, and captures it when the owner approves', async () => {
    const { buyer, order, intent } = await paidAtStripe('elevated');
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'In review', statusNote: riskMessages.inReviewNote });
    expect(fake.intentStatus(intent)).toBe('requires_capture');
    expect(fake.calls(`POST /v1/payment_intents/${intent}/capture`)).toEqual([]);
    const detail = (await t.app.inject({ url: `/api/admin/orders/${order._id}`, headers: admin.headers })).json<AdminOrder>();
    expect(detail.risk?.facts.map((fact) => fact.signal)).toEqual(['provider-risk-elevated']);

    expect((await decide(order._id, 'approve')).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    expect(fake.intentStatus(intent)).toBe('succeeded');
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
  });

  it('releases the authorisation when the owner cancels: no refund, no capture', async () => {
    const { buyer, gameId, order, intent } = await paidAtStripe('elevated');
    expect((await decide(order._id, 'cancel')).statusCode).toBe(200);
    expect(fake.intentStatus(intent)).toBe('canceled');
    expect(fake.calls('POST /v1/refunds')).toEqual([]);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Cancelled', deliveryStatus: 'Not delivered' });
    expect(await t.stockOf(gameId)).toBe(10);
  });

  it('refuses the highest risk and releases its authorisation at once', async () => {
    const { buyer, order, intent } = await paidAtStripe('highest');
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Declined', declineReason: riskMessages.paymentRefused });
    expect(fake.intentStatus(intent)).toBe('canceled');
  });

  it('holds a risky payment for an order that lapsed before it came (its keys taken again), and refuses the highest risk of one', async () => {
    for (const riskLevel of ['elevated', 'highest'] as const) {
      const buyer = await t.buyer();
      gameIndex += 1;
      const gameId = await t.gameWithStock(10, gameIndex);
      const { order } = await t.order(buyer, gameId, 1);
      await t.app.orders.markExpired(order._id);
      expect(await t.stockOf(gameId)).toBe(10);
      fake.cardFor(order._id, { riskLevel, threeDSecure: false });
      const session = fake.sessionFor(order._id);
      const { payload, headers } = fake.signed(fake.sessionEvent('checkout.session.completed', session.id));
      expect((await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload })).statusCode).toBe(200);
      await t.app.orders.allocator.drain();
      expect(fake.calls(`POST /v1/payment_intents/${session.payment_intent}/capture`)).toEqual([]);
      if (riskLevel === 'elevated') {
        expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'In review', deliveryStatus: 'Pending', statusNote: riskMessages.inReviewNote });
        expect(fake.intentStatus(session.payment_intent)).toBe('requires_capture');
        expect(await t.stockOf(gameId)).toBe(9);
        expect((await decide(order._id, 'approve')).statusCode).toBe(200);
        await t.app.orders.allocator.drain();
        expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
      } else {
        expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Expired' });
        expect(fake.intentStatus(session.payment_intent)).toBe('canceled');
        expect(await t.stockOf(gameId)).toBe(10);
      }
    }
  });

  it('takes a dispute and its close from Stripe once each, and refunds on an early fraud warning', async () => {
    const send = async (event: Record<string, unknown>) => {
      const { payload, headers } = fake.signed(event);
      return (await t.app.inject({ method: 'POST', url: STRIPE_WEBHOOK_PATH, headers, payload })).statusCode;
    };
    const disputed = await paidAtStripe('normal');
    const opened = fake.paymentEvent('charge.dispute.created', disputed.order._id, { amount: Math.round(disputed.order.amount * 100), status: 'needs_response', balance_transactions: [{ fee: 1500 }] });
    expect([await send(opened), await send(opened)]).toEqual([200, 200]);
    expect((await t.app.inject({ url: `/api/admin/orders/${disputed.order._id}`, headers: admin.headers })).json<AdminOrder>().order.status).toBe('Disputed');
    // Nothing went back through Stripe: the network took the money.
    expect(fake.calls('POST /v1/refunds')).toEqual([]);
    expect(await send(fake.paymentEvent('charge.dispute.closed', disputed.order._id, { status: 'won' }))).toBe(200);
    const timeline = (await t.app.inject({ url: `/api/admin/orders/${disputed.order._id}`, headers: admin.headers })).json<AdminOrder>().timeline;
    expect(timeline.map((event) => event.to)).toEqual(expect.arrayContaining(['Disputed', 'Dispute won']));

    // The dispute blocked the card every buyer here pays with: the owner lifts it for the next one.
    for (const entry of (await t.app.inject({ url: '/api/admin/risk/blocklist', headers: admin.headers })).json<Array<{ _id: string; kind: string }>>()) {
      if (entry.kind === 'card') await t.app.inject({ method: 'DELETE', url: `/api/admin/risk/blocklist/${entry._id}`, headers: admin.headers });
    }
    const warned = await paidAtStripe('normal');
    expect(await send(fake.paymentEvent('radar.early_fraud_warning.created', warned.order._id, { actionable: true, fraud_type: 'made_with_stolen_card' }))).toBe(200);
    expect((await t.app.inject({ url: `/api/admin/orders/${warned.order._id}`, headers: admin.headers })).json<AdminOrder>().order.status).toBe('Refunded');
    expect(fake.calls('POST /v1/refunds')).toMatchObject([{ body: { payment_intent: warned.intent } }]);
  });

  it('lets 3-D Secure take 30 off: an elevated-risk payment authenticated with it is accepted', async () => {
    const { buyer, order, intent } = await paidAtStripe('elevated', true);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    expect(fake.intentStatus(intent)).toBe('succeeded');
  });
});
