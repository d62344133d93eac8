// The risk desk's holds (issue 29), as a buyer and the owner meet them: a risky payment is authorised,
// not charged, and its keys wait until the owner approves (keys out at once) or cancels (hold released,
// keys back on the shelf); the highest-risk card is refused; three declines lock a buyer out; an order
// nobody decides is settled by its score before its authorisation lapses.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { riskMessages, RISK_TEST_CARDS, TEST_CARDS, type AdminOrder, type Notification, type Purchase, type RiskQueueEntry, type TestPaymentAnswer } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { SessionService } from '../auth/sessions.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

const ELEVATED = { cardNumber: RISK_TEST_CARDS.elevatedRisk };

describe('orders held for review', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  let gameIndex = 0;

  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  const library = async (who: Buyer) => (await t.app.inject({ url: '/api/purchases', headers: who.headers })).json<Purchase[]>();
  const decide = (orderId: string, verdict: 'approve' | 'cancel', note = '') =>
    t.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/${verdict}`, headers: admin.headers, payload: { note } });
  const queue = async () => (await t.app.inject({ url: '/api/admin/risk/queue', headers: admin.headers })).json<RiskQueueEntry[]>();

  /** A buyer's order of `quantity` keys of a fresh game with 10 in stock, paid with `card`. */
  async function paid(card: { cardNumber: string }, quantity = 1) {
    const buyer = await t.buyer();
    gameIndex += 1;
    const gameId = await t.gameWithStock(10, gameIndex);
    const { order } = await t.order(buyer, gameId, quantity);
    const answer = await t.pay(buyer, order._id, card);
    return { buyer, gameId, order, answer };
  }

  it('holds a payment the provider rates elevated: authorised, not charged, keys reserved, the owner told', async () => {
    const { buyer, gameId, order, answer } = await paid(ELEVATED);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<TestPaymentAnswer>()).toEqual({ status: 'In review', deliveryStatus: 'Pending', message: riskMessages.inReviewNote, redirectUrl: `/library?order=${order._id}` });
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'In review', deliveryStatus: 'Pending', paidAt: null, statusNote: riskMessages.inReviewNote });
    expect(await library(buyer)).toEqual([]);
    expect(await t.stockOf(gameId)).toBe(9);
    // Nothing reaches the ledger before capture.
    const [postings] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ledger_entries where order_id = ${order._id}`);
    expect(postings!.n).toBe(0);

    const held = (await queue()).find((entry) => entry.orderId === order._id)!;
    expect(held).toMatchObject({ email: buyer.email, amount: order.amount, score: 40, cancelRecommended: false });
    expect(held.facts.map((fact) => fact.signal)).toEqual(['provider-risk-elevated']);
    // Decided by the deadline 12 hours before the 7-day authorisation lapses.
    expect(new Date(held.decideBy).getTime() - Date.now()).toBeGreaterThan((7 * 24 - 12 - 1) * 3_600_000);

    const notes = (await t.app.inject({ url: '/api/notifications', headers: admin.headers })).json<Notification[]>();
    expect(notes.find((note) => note.link === `/admin/orders/${order._id}`)).toMatchObject({ title: 'Order waiting for review' });
    expect((await t.mailsTo(admin.email)).some((mail) => mail.subject.includes(`Order ${order._id} is waiting for review`))).toBe(true);
    // The buyer hears nothing of the signals, and gets no receipt yet.
    expect(await t.mailsTo(buyer.email)).toEqual([]);

    const detail = (await t.app.inject({ url: `/api/admin/orders/${order._id}`, headers: admin.headers })).json<AdminOrder>();
    expect(detail.risk).toMatchObject({ score: 40, decision: 'review', verdict: null, rulesVersion: 1 });
    // Paying it again says it is being checked.
    const again = await t.pay(buyer, order._id);
    expect({ status: again.statusCode, body: again.json() }).toEqual({ status: 409, body: { error: riskMessages.orderInReview } });
  });

  it('delivers the keys at once when the owner approves, with the note in the timeline, and decides once', async () => {
    const { buyer, order } = await paid(ELEVATED);
    const approved = await decide(order._id, 'approve', 'Known customer, called them');
    expect(approved.statusCode).toBe(200);
    expect(approved.json<AdminOrder>().order.status).toBe('Paid');
    await t.app.orders.allocator.drain();
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered', statusNote: null });
    expect(await library(buyer)).toHaveLength(1);
    const detail = (await t.app.inject({ url: `/api/admin/orders/${order._id}`, headers: admin.headers })).json<AdminOrder>();
    expect(detail.timeline.find((event) => event.from === 'In review')).toMatchObject({ to: 'Paid', actor: `admin:${admin.userId}`, reason: 'Known customer, called them' });
    expect(detail.risk).toMatchObject({ verdict: 'approved', decidedBy: admin.userId, decisionNote: 'Known customer, called them' });
    for (const verdict of ['approve', 'cancel'] as const) {
      const late = await decide(order._id, verdict);
      expect({ status: late.statusCode, body: late.json() }).toEqual({ status: 409, body: { error: riskMessages.notInReview } });
    }
    expect((await queue()).some((entry) => entry.orderId === order._id)).toBe(false);
  });

  it('releases the hold when the owner cancels: nothing charged, keys back on the shelf, the buyer told', async () => {
    const { buyer, gameId, order } = await paid(ELEVATED, 2);
    expect(await t.stockOf(gameId)).toBe(8);
    const cancelled = await decide(order._id, 'cancel', 'Card and address do not match');
    expect(cancelled.statusCode).toBe(200);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Cancelled', deliveryStatus: 'Not delivered', refundedAt: null, declineReason: riskMessages.reviewCancelledNote });
    expect(await t.stockOf(gameId)).toBe(10);
    expect(await library(buyer)).toEqual([]);
  });

  it('lets only one of two decisions made at once stand', async () => {
    const { order } = await paid(ELEVATED);
    const answers = await Promise.all([decide(order._id, 'approve'), decide(order._id, 'cancel')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    await t.app.orders.allocator.drain();
    const [row] = await queryRows<{ status: string }>(t.database.db, sql`select status from orders where id = ${order._id}`);
    expect(['Paid', 'Cancelled']).toContain(row!.status);
  });

  it('refuses a card the provider rates highest risk: nothing charged, the keys back at once', async () => {
    const { buyer, gameId, order, answer } = await paid({ cardNumber: RISK_TEST_CARDS.highestRisk });
    expect(answer.json<TestPaymentAnswer>()).toMatchObject({ status: 'Declined', deliveryStatus: 'Not delivered', message: riskMessages.paymentRefused });
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Declined', declineReason: riskMessages.paymentRefused });
    expect(await t.stockOf(gameId)).toBe(10);
  });

  it('accepts an ordinary payment at once, and holds a buyer who wants more than 2 copies of a title', async () => {
    // Someone else's attempt to pay an order leaves no assessment on it; its buyer's payment is assessed and accepted.
    const buyer = await t.buyer();
    gameIndex += 1;
    const { order } = await t.order(buyer, await t.gameWithStock(10, gameIndex), 1);
    const stranger = await t.buyer();
    expect((await t.pay(stranger, order._id, { cardNumber: RISK_TEST_CARDS.highestRisk })).statusCode).toBe(404);
    expect((await t.pay(buyer, order._id, { cardNumber: TEST_CARDS.pays })).json<TestPaymentAnswer>().status).toBe('Paid');
    const detail = (await t.app.inject({ url: `/api/admin/orders/${order._id}`, headers: admin.headers })).json<AdminOrder>();
    expect(detail.risk).toMatchObject({ decision: 'accept', score: 0 });
    const many = await paid({ cardNumber: TEST_CARDS.pays }, 3);
    expect(many.answer.json<TestPaymentAnswer>().status).toBe('In review');
    expect((await queue()).find((entry) => entry.orderId === many.order._id)?.facts.map((fact) => fact.note)).toEqual(['3 copies of one title in this order or in 30 days']);
  });

  it('locks out a buyer after 3 declines in 10 minutes: new orders and payments answer 429 for a day', async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(50, 30);
    for (let n = 0; n < 3; n += 1) {
      const { order } = await t.order(buyer, gameId, 1);
      expect((await t.pay(buyer, order._id, { cardNumber: TEST_CARDS.declined })).json<TestPaymentAnswer>().status).toBe('Declined');
    }
    const placed = await t.placeOrder(buyer, [{ gameId, quantity: 1 }]);
    expect({ status: placed.statusCode, body: placed.json() }).toEqual({ status: 429, body: { error: riskMessages.cardTestingLockout } });
    expect(Number(placed.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    // Another buyer elsewhere is not affected.
    const other = await t.buyer();
    expect((await t.placeOrder(other, [{ gameId, quantity: 1 }])).statusCode).toBe(201);
  });

  it('settles an order nobody decided 12 hours before its authorisation lapses: approved under 50, cancelled from 50', async () => {
    const low = await paid(ELEVATED);
    const high = await paid(ELEVATED, 3);
    const far = await paid(ELEVATED);
    await t.database.db.execute(sql`update orders set authorised_until = now() + interval '11 hours' where id in (${low.order._id}, ${high.order._id})`);
    expect(await t.app.orderJobs.settleReviews()).toBe(2);
    await t.app.orders.allocator.drain();
    expect(await t.getOrder(low.buyer, low.order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    expect(await t.getOrder(high.buyer, high.order._id)).toMatchObject({ status: 'Cancelled', deliveryStatus: 'Not delivered' });
    expect(await t.getOrder(far.buyer, far.order._id)).toMatchObject({ status: 'In review' });
    const detail = (await t.app.inject({ url: `/api/admin/orders/${high.order._id}`, headers: admin.headers })).json<AdminOrder>();
    expect(detail.risk).toMatchObject({ score: 70, cancelRecommended: true, verdict: 'cancelled', decidedBy: null, decisionNote: riskMessages.notReviewedInTime });
    expect(detail.timeline.find((event) => event.from === 'In review')).toMatchObject({ to: 'Cancelled', actor: 'system:review-deadline' });
    // Run again: nothing left to settle.
    expect(await t.app.orderJobs.settleReviews()).toBe(0);
  });

  it('answers 400 for a note too long, and 404 for an unknown order', async () => {
    const { order } = await paid(ELEVATED);
    const long = await decide(order._id, 'approve', 'x'.repeat(501));
    expect({ status: long.statusCode, body: long.json() }).toEqual({ status: 400, body: { error: riskMessages.reviewNoteTooLong } });
    expect((await decide('no-such-order', 'approve')).statusCode).toBe(404);
  });

  it("holds an order whose seller signs in from the buyer's browser (cashing out)", async () => {
    const browser = 'b7d1c2e4-0a4f-4d0b-9a61-3f0c8e2d5a11';
    const sellerUser = await t.buyer();
    // The seller's account signs in from that browser (the web app sends its id with the sign-in).
    await new SessionService(t.database, t.config.secrets.jwt).open(sellerUser.userId, { ip: '192.0.2.200', userAgent: 'test', browser });
    gameIndex += 1;
    const gameId = await t.gameWithStock(0, gameIndex);
    const as = (who: Buyer, url: string, payload: object, method: 'POST' | 'PATCH' = 'POST') => t.app.inject({ method, url, headers: who.headers, payload });
    const applied = (await as(sellerUser, '/api/sellers', { name: 'Cash Out Keys', contactEmail: 'sales@example.com', country: 'de' })).json<{ seller: { _id: string } }>();
    expect((await as(admin, `/api/admin/sellers/${applied.seller._id}`, { status: 'active' }, 'PATCH')).statusCode).toBe(200);
    const offer = (await as(sellerUser, '/api/seller/offers', { gameId, netPrice: 5 })).json<{ offer: { _id: string } }>();
    await as(sellerUser, `/api/seller/offers/${offer.offer._id}/keys`, { keys: ['CASH-0001-AAAA'] });

    const buyer = await t.buyer();
    const placed = await t.app.inject({ method: 'POST', url: '/api/orders', headers: { ...buyer.headers, 'x-session-id': browser }, payload: { items: [{ gameId, quantity: 1 }] }, remoteAddress: buyer.address });
    const { order } = placed.json<{ order: { _id: string } }>();
    expect((await t.pay(buyer, order._id)).json<TestPaymentAnswer>().status).toBe('In review');
    expect((await queue()).find((entry) => entry.orderId === order._id)?.facts.map((fact) => fact.signal)).toEqual(['seller-cash-out']);
  });
});
