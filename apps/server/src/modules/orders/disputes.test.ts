// After the sale (issue 29): a dispute takes back every key nobody revealed (a seller's goes back on
// sale, its seller told, and is sold to the next buyer), posts the chargeback and the fee, blocks the
// buyer and its identities; a dispute reported twice changes nothing more; a won dispute gives the money
// back once; an early fraud warning refunds an order with unrevealed keys as fraudulent. The ledger
// sums to zero throughout. The test gateway's disputed card raises a dispute by itself.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPUTE_FEE_CENTS, riskMessages, RISK_TEST_CARDS, type BlocklistEntry, type LedgerBalance, type Offer, type Order, type Purchase, type RiskFigures, type Seller } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from './test-kit.ts';

describe('disputes and fraud warnings', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  let gameIndex = 10;

  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  const as = <T>(who: Buyer, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload && { payload }) }).then((answer) => ({ status: answer.statusCode, body: answer.json<T>() }));
  const ledgerTotal = async () => (await as<LedgerBalance>(admin, 'GET', '/api/admin/ledger/balance')).body.total;
  /**
   * Every buyer here pays with the one test card 4242…, which a dispute puts on the blocklist: the owner
   * lifts that entry, so the next buyers' payments are not refused for it.
   */
  async function liftCardBlock(orderId: string) {
    const blocklist = (await as<BlocklistEntry[]>(admin, 'GET', '/api/admin/risk/blocklist')).body;
    for (const entry of blocklist.filter((candidate) => candidate.kind === 'card' && candidate.note.endsWith(`order ${orderId}`))) {
      expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/risk/blocklist/${entry._id}`, headers: admin.headers })).statusCode).toBe(204);
    }
  }
  const orderRow = async (orderId: string) => (await queryRows<{ status: string; delivery_status: string }>(t.database.db, sql`select status, delivery_status from orders where id = ${orderId}`))[0]!;

  /** An approved seller offering a fresh game (no house stock) with these keys. */
  async function sellerWith(keys: string[]) {
    const user = await t.buyer();
    gameIndex += 1;
    const gameId = await t.gameWithStock(0, gameIndex);
    const applied = await as<{ seller: Seller }>(user, 'POST', '/api/sellers', { name: `Dispute Keys ${gameIndex}`, contactEmail: 'sales@example.com', country: 'de' });
    expect((await as(admin, 'PATCH', `/api/admin/sellers/${applied.body.seller._id}`, { status: 'active' })).status).toBe(200);
    const offer = await as<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId, netPrice: 10 });
    await as(user, 'POST', `/api/seller/offers/${offer.body.offer._id}/keys`, { keys });
    return { user, gameId, offerId: offer.body.offer._id };
  }

  /** A buyer's paid order of 2 of the seller's keys, one of them revealed. */
  async function boughtTwoRevealedOne(gameId: string) {
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, gameId, 2);
    expect((await t.pay(buyer, order._id)).statusCode).toBe(200);
    const purchases = (await as<Purchase[]>(buyer, 'GET', '/api/purchases')).body;
    expect(purchases).toHaveLength(2);
    const revealed = (await as<{ key: string }>(buyer, 'GET', `/api/purchases/${purchases[0]!._id}/key`)).body.key;
    return { buyer, order, revealed };
  }

  it("takes back the unrevealed key to its seller's shelf, keeps the revealed one, blocks the buyer, and the ledger balances", async () => {
    const seller = await sellerWith(['DISP-0001-AAAA', 'DISP-0002-AAAA']);
    const { buyer, order, revealed } = await boughtTwoRevealedOne(seller.gameId);
    const before = (await as<Seller>(seller.user, 'GET', '/api/seller')).body.balance;
    expect(before.held).toBe(20);

    await t.app.orders.markDisputed(order._id, { reference: 'dp_1', feeCents: DISPUTE_FEE_CENTS });
    await t.app.events.drain();

    expect(await orderRow(order._id)).toEqual({ status: 'Disputed', delivery_status: 'Delivered' });
    // The unrevealed key left the buyer's library and is on sale again; the revealed one stays, never sold again.
    const live = await queryRows<{ serial_hash: string }>(t.database.db, sql`select serial_hash from product_keys where order_id = ${order._id} and voided_at is null`);
    expect(live).toHaveLength(1);
    const keys = (await as<Array<{ state: string; masked: string }>>(seller.user, 'GET', `/api/seller/offers/${seller.offerId}/keys`)).body;
    expect(keys.map((key) => key.state).sort()).toEqual(['available', 'sold']);
    expect((await t.app.inject({ url: `/api/games/${seller.gameId}` })).json<{ stock: number }>().stock).toBe(1);
    // The seller keeps the revealed key's earnings and loses the sale of the one that came back; told which.
    const after = (await as<Seller>(seller.user, 'GET', '/api/seller')).body.balance;
    expect(after.held).toBe(10);
    const told = (await as<Array<{ title: string; text: string }>>(seller.user, 'GET', '/api/notifications')).body;
    expect(told.find((note) => note.title === 'Keys back after a dispute')?.text).toContain(keys.find((key) => key.state === 'available')!.masked);
    expect(await ledgerTotal()).toBe(0);

    // The buyer is blocked (its session ends) and its identities are on the blocklist.
    expect((await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).statusCode).toBe(403);
    const blocklist = (await as<BlocklistEntry[]>(admin, 'GET', '/api/admin/risk/blocklist')).body;
    expect(blocklist.filter((entry) => entry.note === `dispute of order ${order._id}`).map((entry) => entry.kind).sort()).toEqual(['address', 'card', 'email']);
    expect(revealed).toMatch(/^DISP-000[12]-AAAA$/);
    await liftCardBlock(order._id);

    // The key that came back is sold to the next buyer.
    const next = await t.buyer();
    const { order: again } = await t.order(next, seller.gameId, 1);
    expect((await t.pay(next, again._id)).json()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    const [purchase] = (await as<Purchase[]>(next, 'GET', '/api/purchases')).body;
    expect((await as<{ key: string }>(next, 'GET', `/api/purchases/${purchase!._id}/key`)).body.key).not.toBe(revealed);
    expect(await ledgerTotal()).toBe(0);

    // The month's figure counts the dispute.
    const figures = (await as<RiskFigures>(admin, 'GET', '/api/admin/risk/figures')).body;
    expect(figures.disputes).toBeGreaterThanOrEqual(1);
  });

  it("puts the house's unrevealed key on its shelf, and delivers the next house order from it before the supplier", async () => {
    const gameId = await t.gameWithStock(10, 7);
    const { buyer, order, revealed } = await boughtTwoRevealedOne(gameId);
    await t.app.orders.markDisputed(order._id, { reference: 'dp_house', feeCents: DISPUTE_FEE_CENTS });
    await t.app.events.drain();
    expect(await orderRow(order._id)).toEqual({ status: 'Disputed', delivery_status: 'Delivered' });
    const shelf = () => queryRows<{ state: string; line_id: string | null; from_order_id: string }>(t.database.db, sql`select state, line_id, from_order_id from house_shelf where game_id = ${gameId}`);
    // Only the key nobody saw is on the shelf; the revealed one stays in the buyer's library, never sold again.
    expect(await shelf()).toEqual([{ state: 'shelved', line_id: null, from_order_id: order._id }]);
    expect(await ledgerTotal()).toBe(0);
    await liftCardBlock(order._id);
    expect((await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).statusCode).toBe(403);

    // The next buyer of the house's offer gets it, and the supplier is not asked for a key.
    const next = await t.buyer();
    const { order: again } = await t.order(next, gameId, 1);
    expect((await t.pay(next, again._id)).json()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    const [purchase] = (await as<Purchase[]>(next, 'GET', '/api/purchases')).body;
    const key = (await as<{ key: string }>(next, 'GET', `/api/purchases/${purchase!._id}/key`)).body.key;
    expect(key).not.toBe(revealed);
    const [line] = await queryRows<{ id: string; supplier_order_id: string | null }>(t.database.db, sql`select l.id, o.supplier_order_id from order_lines l join orders o on o.id = l.order_id where o.id = ${again._id}`);
    expect(await shelf()).toEqual([{ state: 'sold', line_id: line!.id, from_order_id: order._id }]);
    expect(line!.supplier_order_id).toBeNull();
    // The house keeps the whole price of a key it had paid for before; the ledger still sums to zero.
    const [commission] = await queryRows<{ cents: string }>(
      t.database.db,
      sql`select sum(l.amount_cents) as cents from ledger_lines l join ledger_entries e on e.id = l.entry_id where e.order_id = ${again._id} and l.account = 'commission'`,
    );
    expect(Number(commission!.cents)).toBe(Math.round(again.amount * 100));
    expect(await ledgerTotal()).toBe(0);

    // Refunded after its buyer revealed it, it is burnt: never sold again.
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/orders/${again._id}/refund`, headers: admin.headers, payload: { reason: 'test' } })).statusCode).toBe(200);
    expect(await shelf()).toEqual([{ state: 'burnt', line_id: null, from_order_id: order._id }]);
    expect(await ledgerTotal()).toBe(0);
  });

  it('changes nothing more when a dispute arrives twice, and gives the money back once when it is won', async () => {
    const seller = await sellerWith(['TWICE-0001-AAAA', 'TWICE-0002-AAAA']);
    const { order } = await boughtTwoRevealedOne(seller.gameId);
    const lines = async () => (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ledger_lines`))[0]!.n;
    await t.app.orders.markDisputed(order._id, { reference: 'dp_2', feeCents: DISPUTE_FEE_CENTS });
    const once = await lines();
    await t.app.orders.markDisputed(order._id, { reference: 'dp_2', feeCents: DISPUTE_FEE_CENTS });
    expect(await lines()).toBe(once);
    await liftCardBlock(order._id);
    const [lost] = await queryRows<{ cents: string }>(
      t.database.db,
      sql`select sum(l.amount_cents) as cents from ledger_lines l join ledger_entries e on e.id = l.entry_id where e.order_id = ${order._id} and l.account = 'commission'`,
    );
    for (let n = 0; n < 2; n += 1) await t.app.orders.markDisputeClosed(order._id, true);
    const [won] = await queryRows<{ n: number; cents: string }>(
      t.database.db,
      sql`select count(*)::int as n, sum(l.amount_cents) as cents from ledger_lines l join ledger_entries e on e.id = l.entry_id where e.order_id = ${order._id} and e.kind = 'dispute-won' and l.account = 'payments'`,
    );
    // Won: the order amount less the seller's returned sale, plus the fee, comes back to the store, once.
    expect(won!.n).toBe(1);
    expect(-Number(won!.cents)).toBeGreaterThan(DISPUTE_FEE_CENTS);
    expect(Number(lost!.cents)).toBeLessThan(0);
    expect(await ledgerTotal()).toBe(0);
    const timeline = (await as<{ timeline: Array<{ kind: string; to: string }> }>(admin, 'GET', `/api/admin/orders/${order._id}`)).body.timeline;
    expect(timeline.filter((event) => event.to === 'Dispute won')).toHaveLength(1);
    expect(timeline.find((event) => event.to === 'Disputed')).toMatchObject({ kind: 'status' });
  });

  it('refunds an order with unrevealed keys as fraudulent on an early fraud warning, and blocks its buyer', async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(10, 5);
    const { order } = await t.order(buyer, gameId, 1);
    expect((await t.pay(buyer, order._id)).json()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    await t.app.orders.markFraudWarning(order._id);
    await t.app.events.drain();
    expect(await orderRow(order._id)).toMatchObject({ status: 'Refunded' });
    const outcomes = await queryRows<{ kind: string }>(t.database.db, sql`select kind from risk_outcomes where order_id = ${order._id} order by kind`);
    expect(outcomes.map((row) => row.kind)).toEqual(['early-fraud-warning', 'fraud-refund']);
    // Its house key, never revealed, is on the house's shelf for the next buyer.
    expect(await queryRows(t.database.db, sql`select state, from_order_id from house_shelf where game_id = ${gameId}`)).toEqual([{ state: 'shelved', from_order_id: order._id }]);
    expect((await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).statusCode).toBe(403);
    expect(await ledgerTotal()).toBe(0);
    await liftCardBlock(order._id);
  });

  it('refuses the next payment of a blocklisted e-mail, and disputes a payment with the test gateway\'s disputed card by itself', async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(10, 6);
    const { order } = await t.order(buyer, gameId, 1);
    expect((await t.pay(buyer, order._id, { cardNumber: RISK_TEST_CARDS.disputed })).json()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    // A few seconds later the test gateway's job disputes it.
    const deadline = Date.now() + 15_000;
    while ((await orderRow(order._id)).status !== 'Disputed' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await orderRow(order._id)).toMatchObject({ status: 'Disputed' });
    await t.app.events.drain();

    // The same e-mail as a guest, from elsewhere, with another card: refused at payment.
    const placed = await t.app.inject({ method: 'POST', url: '/api/orders', payload: { items: [{ gameId, quantity: 1 }], email: buyer.email }, remoteAddress: '203.0.113.77' });
    expect(placed.statusCode).toBe(201);
    const { order: guestOrder, token } = placed.json<{ order: Order; token: string }>();
    const paid = await t.app.inject({ method: 'POST', url: `/api/payments/test/${guestOrder._id}?token=${token}`, payload: { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Guest' }, remoteAddress: '203.0.113.77' });
    expect(paid.json()).toMatchObject({ status: 'Declined', message: riskMessages.paymentRefused });
  });
});
