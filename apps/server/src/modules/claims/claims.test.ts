// Claims through the real app (issue 24): a buyer reports a revealed key; the seller replaces it (from
// uploaded keys, or through its endpoint) or rejects it; the owner decides; a seller's silence refunds it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimMessages, type Claim, type LedgerBalance, type Offer, type Purchase, type Seller } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { BUYER_PASSWORD, ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { startFakeSeller, type FakeSeller } from '../offers/test-kit.ts';

describe('claims', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  const fakes: FakeSeller[] = [];
  let serial = 0;
  const call = <T>(who: Buyer | undefined, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
    t.app
      .inject({ method, url, headers: who ? who.headers : {}, ...(payload === undefined ? {} : { payload: payload as object }) })
      .then((answer) => ({ status: answer.statusCode, body: answer.body ? answer.json<T>() : (undefined as T) }));

  /** An approved seller with the only offer of a game (the house has none): `keys` uploaded keys. */
  const uploadedSeller = async (index: number, keys: number) => {
    const game = await t.gameWithStock(0, index);
    const user = await t.buyer();
    const applied = await call<{ seller: Seller }>(user, 'POST', '/api/sellers', { name: `Claim Keys ${index}`, contactEmail: 'claims@example.com', country: 'PL' });
    await call(admin, 'PATCH', `/api/admin/sellers/${applied.body.seller._id}`, { status: 'active', holdDays: 0 });
    const offer = (await call<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId: game, netPrice: 5 })).body.offer;
    const serials = Array.from({ length: keys }, () => `CLM-${index}-${String((serial += 1)).padStart(4, '0')}-KEY`);
    await call(user, 'POST', `/api/seller/offers/${offer._id}/keys`, { keys: serials });
    return { game, user, offer, seller: applied.body.seller, serials };
  };

  /** A buyer who bought and revealed one key of `game`: the purchase and its key. */
  const boughtAndRevealed = async (game: string) => {
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 1);
    await t.pay(buyer, order._id);
    await t.app.orders.allocator.drain();
    const [purchase] = (await call<Purchase[]>(buyer, 'GET', '/api/purchases')).body;
    const key = (await call<{ key: string }>(buyer, 'GET', `/api/purchases/${purchase!._id}/key`)).body.key;
    return { buyer, purchase: purchase!, key, orderId: order._id };
  };
  const balance = async () => (await call<LedgerBalance>(admin, 'GET', '/api/admin/ledger/balance')).body.total;

  beforeAll(async () => {
    t = await ordersTestApp({ env: { SELLER_RESERVE_TIMEOUT_MS: '500', SELLER_PROVIDE_TIMEOUT_MS: '500', SELLER_PROVIDE_RETRY_MS: '20', RATE_LIMIT_SCALE: '10' } });
    admin = await t.buyer('admin');
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  it('takes a claim on a revealed key only, once, and the seller replaces it from its stock', async () => {
    const { game, user, serials } = await uploadedSeller(13, 3);
    const { buyer, purchase, key } = await boughtAndRevealed(game);
    expect(serials).toContain(key);

    // A key never revealed cannot be reported; nor another buyer's.
    const other = await t.buyer();
    const { order } = await t.order(other, game, 1);
    await t.pay(other, order._id);
    await t.app.orders.allocator.drain();
    const [unseen] = (await call<Purchase[]>(other, 'GET', '/api/purchases')).body;
    // The library says which keys were revealed: a problem can be reported only on those.
    expect(unseen!.revealed).toBe(false);
    expect((await call<Purchase[]>(buyer, 'GET', '/api/purchases')).body[0]!.revealed).toBe(true);
    expect((await call(other, 'POST', `/api/purchases/${unseen!._id}/claim`, { reason: 'invalid-key' })).body).toEqual({ error: claimMessages.notRevealed });
    expect((await call(other, 'POST', `/api/purchases/${purchase._id}/claim`, { reason: 'invalid-key' })).status).toBe(404);
    expect((await call(buyer, 'POST', `/api/purchases/${purchase._id}/claim`, { reason: 'stolen' })).body).toEqual({ error: claimMessages.reasonInvalid });

    const opened = await call<{ claim: Claim }>(buyer, 'POST', `/api/purchases/${purchase._id}/claim`, { reason: 'already-redeemed', message: 'Steam says it was used' });
    expect(opened.status).toBe(201);
    expect(opened.body.claim).toMatchObject({ purchaseId: purchase._id, state: 'open', reason: 'already-redeemed', seller: 'Claim Keys 13' });
    expect((await call(buyer, 'POST', `/api/purchases/${purchase._id}/claim`, { reason: 'other' })).body).toEqual({ error: claimMessages.alreadyOpen });

    // The seller sees the claim with the key masked, never the buyer or the whole key.
    const sellerView = (await call<Claim[]>(user, 'GET', '/api/seller/claims')).body;
    expect(sellerView[0]).toMatchObject({ _id: opened.body.claim._id, maskedKey: expect.stringMatching(/•+.{1,8}$/) });
    expect(JSON.stringify(sellerView)).not.toContain(key);
    expect(JSON.stringify(sellerView)).not.toContain(buyer.email);
    // Another seller cannot touch it.
    const stranger = await uploadedSeller(14, 1);
    expect((await call(stranger.user, 'POST', `/api/seller/claims/${opened.body.claim._id}/replace`)).status).toBe(404);

    const replaced = await call<{ claim: Claim }>(user, 'POST', `/api/seller/claims/${opened.body.claim._id}/replace`);
    expect(replaced.body.claim.state).toBe('replaced');
    const newKey = (await call<{ key: string }>(buyer, 'GET', `/api/purchases/${purchase._id}/key`)).body.key;
    expect(newKey).not.toBe(key);
    expect(serials).toContain(newKey);
    expect((await call<Claim[]>(buyer, 'GET', '/api/claims')).body[0]!.state).toBe('replaced');
    const bell = (await call<Array<{ title: string }>>(buyer, 'GET', '/api/notifications')).body.map((n) => n.title);
    expect(bell).toEqual(expect.arrayContaining(['Problem reported', 'Key replaced']));
    const mails = await t.mailsTo(buyer.email);
    expect(mails[0]!.subject).toMatch(/was replaced/);
    for (const mail of mails) expect(mail.text + mail.html).not.toContain(newKey);
    expect((await call(user, 'POST', `/api/seller/claims/${opened.body.claim._id}/reject`, { message: 'no' })).body).toEqual({ error: claimMessages.decided });
  });

  it('sends a rejected claim to the owner, who refunds the key from the seller, audited', async () => {
    const { game, user, seller } = await uploadedSeller(15, 2);
    const { buyer, purchase, orderId } = await boughtAndRevealed(game);
    const claim = (await call<{ claim: Claim }>(buyer, 'POST', `/api/purchases/${purchase._id}/claim`, { reason: 'wrong-region' })).body.claim;
    expect((await call(user, 'POST', `/api/seller/claims/${claim._id}/reject`, { message: '' })).status).toBe(400);
    expect((await call<{ claim: Claim }>(user, 'POST', `/api/seller/claims/${claim._id}/reject`, { message: 'The key is for EU, as listed' })).body.claim.state).toBe('rejected');
    expect((await call(buyer, 'GET', '/api/admin/claims?state=rejected')).status).toBe(403);
    const waiting = (await call<Claim[]>(admin, 'GET', '/api/admin/claims?state=rejected')).body;
    expect(waiting.map((c) => c._id)).toContain(claim._id);
    const decided = await call<{ claim: Claim }>(admin, 'POST', `/api/admin/claims/${claim._id}/decide`, { outcome: 'refund', note: 'Region was not shown on the page' });
    expect(decided.body.claim.state).toBe('refunded');
    // The key left the library, the money went back, the seller paid for it, and the ledger still balances.
    expect((await call<Purchase[]>(buyer, 'GET', '/api/purchases')).body).toHaveLength(0);
    const [entry] = await queryRows<{ seller: number; payments: number }>(
      t.database.db,
      sql`select sum(l.amount_cents) filter (where l.account like ${`seller:${seller._id}:%`})::int as seller, sum(l.amount_cents) filter (where l.account = 'payments')::int as payments
          from ledger_entries e join ledger_lines l on l.entry_id = e.id where e.kind = 'claim' and e.order_id = ${orderId}`,
    );
    expect(entry!.seller).toBe(-500);
    expect(entry!.payments).toBeGreaterThan(500);
    expect(await balance()).toBe(0);
    const audit = (await call<{ items: Array<{ action: string }> }>(admin, 'GET', '/api/admin/audit')).body.items.map((row) => row.action);
    expect(audit).toContain('claim.decide');
    expect((await call(admin, 'POST', `/api/admin/claims/${claim._id}/decide`, { outcome: 'reject' })).body).toEqual({ error: claimMessages.decided });
  });

  it("refunds the key when the seller stays silent for a day, and refuses a claim after 30 days", async () => {
    const { game } = await uploadedSeller(16, 2);
    const { buyer, purchase } = await boughtAndRevealed(game);
    const claim = (await call<{ claim: Claim }>(buyer, 'POST', `/api/purchases/${purchase._id}/claim`, { reason: 'invalid-key' })).body.claim;
    expect(await t.app.claims.refundUnanswered(new Date(Date.now() + 23 * 3_600_000))).toBe(0);
    expect(await t.app.claims.refundUnanswered(new Date(Date.now() + 25 * 3_600_000))).toBe(1);
    expect((await call<Claim[]>(buyer, 'GET', '/api/claims')).body.find((c) => c._id === claim._id)!.state).toBe('refunded');
    expect(await balance()).toBe(0);

    const late = await boughtAndRevealed(game);
    await expect(t.app.claims.open({ userId: late.buyer.userId }, late.purchase._id, { reason: 'other', message: '' }, new Date(Date.now() + 31 * 24 * 3_600_000))).rejects.toThrow(claimMessages.tooLate);
  });

  it("replaces a declared seller's key through a provide with a new reservation", async () => {
    const fake = await startFakeSeller('good');
    fakes.push(fake);
    const game = await t.gameWithStock(0, 17);
    const user = await t.buyer();
    const applied = await call<{ seller: Seller }>(user, 'POST', '/api/sellers', { name: 'Claim JIT', contactEmail: 'jit@example.com', country: 'CZ' });
    await call(admin, 'PATCH', `/api/admin/sellers/${applied.body.seller._id}`, { status: 'active', holdDays: 0 });
    const offer = (await call<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId: game, netPrice: 4 })).body.offer;
    fake.secret = (await call<{ secret: string }>(user, 'PUT', '/api/seller/webhook', { url: fake.url, password: BUYER_PASSWORD })).body.secret;
    await call(user, 'PATCH', `/api/seller/offers/${offer._id}`, { delivery: 'declared', declaredStock: 5 });
    const { buyer, purchase, key } = await boughtAndRevealed(game);
    const claim = (await call<{ claim: Claim }>(buyer, 'POST', `/api/purchases/${purchase._id}/claim`, { reason: 'already-redeemed' })).body.claim;
    expect((await call<{ claim: Claim }>(user, 'POST', `/api/seller/claims/${claim._id}/replace`)).body.claim.state).toBe('replaced');
    expect(fake.callsOf('provide')).toHaveLength(2);
    const newKey = (await call<{ key: string }>(buyer, 'GET', `/api/purchases/${purchase._id}/key`)).body.key;
    expect(newKey).not.toBe(key);
    expect([...fake.handedOver.values()].flat()).toContain(newKey);
    expect(await balance()).toBe(0);
  });

  it('charges nobody twice when the whole order was refunded while a claim waited, and takes no second claim after a decline', async () => {
    const { game, seller } = await uploadedSeller(18, 3);
    const { buyer, purchase, orderId } = await boughtAndRevealed(game);
    const claim = (await call<{ claim: Claim }>(buyer, 'POST', `/api/purchases/${purchase._id}/claim`, { reason: 'invalid-key' })).body.claim;
    expect((await call(admin, 'POST', `/api/admin/orders/${orderId}/refund`, { reason: 'Customer asked' })).status).toBe(200);
    expect(await t.app.claims.refundUnanswered(new Date(Date.now() + 25 * 3_600_000))).toBeGreaterThanOrEqual(0);
    expect((await call<Claim[]>(buyer, 'GET', '/api/claims')).body.find((c) => c._id === claim._id)).toMatchObject({ state: 'refunded', note: 'Refunded with the whole order.' });
    const [claimEntries] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ledger_entries where kind = 'claim' and order_id = ${orderId}`);
    expect(claimEntries!.n).toBe(0);
    const [sellerTotal] = await queryRows<{ total: number }>(t.database.db, sql`select coalesce(sum(amount_cents), 0)::int as total from ledger_lines where account like ${`seller:${seller._id}:%`}`);
    expect(sellerTotal!.total).toBe(0);
    expect(await balance()).toBe(0);

    // A claim the owner declined cannot be opened again to win a seller's silence.
    const other = await boughtAndRevealed(game);
    const first = (await call<{ claim: Claim }>(other.buyer, 'POST', `/api/purchases/${other.purchase._id}/claim`, { reason: 'other' })).body.claim;
    expect((await call<{ claim: Claim }>(admin, 'POST', `/api/admin/claims/${first._id}/decide`, { outcome: 'reject', note: 'Works on our side' })).body.claim.state).toBe('declined');
    expect((await call(other.buyer, 'POST', `/api/purchases/${other.purchase._id}/claim`, { reason: 'other' })).body).toEqual({ error: claimMessages.alreadyDeclined });
  });
});
