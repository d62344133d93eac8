// The marketplace end to end through the real app (issue 23): sellers apply and are approved, offer a
// game with their own keys, the best offer wins the buyer, and the money runs through the ledger.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyerPriceCents, commissionCents, sellerMessages, type GameOffer, type LedgerBalance, type Offer, type Payout, type Seller } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { BUYER_PASSWORD, ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('the commission rule', () => {
  it('is a percent of the net price rounded half up to the cent, plus the fixed part', () => {
    expect(commissionCents(1000, { percent: 10, fixedCents: 0 })).toBe(100);
    expect(commissionCents(15, { percent: 10, fixedCents: 0 })).toBe(2); // 1.5 cents rounds up
    expect(commissionCents(14, { percent: 10, fixedCents: 0 })).toBe(1); // 1.4 cents rounds down
    expect(commissionCents(999, { percent: 12.5, fixedCents: 30 })).toBe(125 + 30); // 124.875 → 125
    expect(buyerPriceCents(1999, { percent: 7.25, fixedCents: 0 })).toBe(1999 + 145); // 144.9275 → 145
  });
});

describe('the marketplace', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  let gameId: string;
  const call = <T>(who: Buyer | { 'x-api-key': string } | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app
      .inject({ method, url, headers: who ? ('headers' in who ? who.headers : who) : {}, ...(payload === undefined ? {} : { payload: payload as object }) })
      .then((answer) => ({ status: answer.statusCode, body: answer.body ? answer.json<T>() : (undefined as T) }));

  /** A customer who applied and was approved, with an offer of `game` at `net` euro and `keys` keys. */
  const activeSeller = async (name: string, game: string, net: number, keys: string[]) => {
    const user = await t.buyer();
    const applied = await call<{ seller: Seller }>(user, 'POST', '/api/sellers', { name, contactEmail: 'sales@example.com', country: 'de' });
    expect(applied.status).toBe(201);
    expect((await call(admin, 'PATCH', `/api/admin/sellers/${applied.body.seller._id}`, { status: 'active' })).status).toBe(200);
    const offer = await call<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId: game, netPrice: net });
    expect(offer.status).toBe(201);
    const uploaded = await call<{ added: number }>(user, 'POST', `/api/seller/offers/${offer.body.offer._id}/keys`, { keys });
    expect(uploaded.body.added).toBe(keys.length);
    return { user, seller: applied.body.seller, offer: offer.body.offer };
  };

  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
    gameId = await t.gameWithStock(5);
    // A line split across offers needs 3 keys of one title, which the default risk rules hold for review.
    await t.riskRulesWithout('many-copies');
  });
  afterAll(() => t.close());

  it('lets a verified customer apply once, pending until the owner approves', async () => {
    const user = await t.buyer();
    const body = { name: 'Pixel Keys', contactEmail: 'Shop@Example.com', country: 'fr' };
    const first = await call<{ seller: Seller }>(user, 'POST', '/api/sellers', body);
    expect(first.status).toBe(201);
    expect(first.body.seller).toMatchObject({ name: 'Pixel Keys', contactEmail: 'shop@example.com', country: 'FR', status: 'pending', holdDays: 14, commission: { percent: 10, fixed: 0 } });
    expect((await call(user, 'POST', '/api/sellers', { ...body, name: 'Other' })).body).toEqual({ error: sellerMessages.alreadySeller });
    expect((await call(await t.buyer(), 'POST', '/api/sellers', { ...body, name: 'pixel keys' })).status).toBe(409);
    expect((await call(await t.buyer(), 'POST', '/api/sellers', { ...body, country: 'France' })).body).toEqual({ error: sellerMessages.countryInvalid });
    expect((await call(undefined, 'POST', '/api/sellers', body)).status).toBe(401);
    // A customer is not an admin: the back office stays shut.
    expect((await call(user, 'PATCH', `/api/admin/sellers/${first.body.seller._id}`, { status: 'active' })).status).toBe(403);
    // A pending seller may prepare an offer; it shows in the store only once approved.
    const offer = await call<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId, netPrice: 0.5 });
    await call(user, 'POST', `/api/seller/offers/${offer.body.offer._id}/keys`, { keys: ['PEND-AAAA-BBBB'] });
    expect((await call<GameOffer[]>(undefined, 'GET', `/api/games/${gameId}/offers`)).body.map((o) => o.seller.name)).not.toContain('Pixel Keys');
  });

  it('prices offers by net plus commission, shows the best offer, and refuses duplicate keys across sellers', async () => {
    const game = await t.gameWithStock(3, 1);
    const [house] = (await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body;
    expect(house).toMatchObject({ seller: { name: 'Keystore' }, stock: 3 });
    const cheaperNet = Math.floor(((house!.price * 100) / 1.1 - 50)) / 100;
    const a = await activeSeller('Cheap Keys', game, cheaperNet, ['AAAA-1111-XXXX', 'AAAA-2222-XXXX']);
    expect(a.offer.price).toBe(buyerPriceCents(Math.round(cheaperNet * 100), { percent: 10, fixedCents: 0 }) / 100);
    const preview = await call(a.user, 'GET', `/api/seller/price-preview?netPrice=${cheaperNet}`);
    expect(preview.body).toEqual({ netPrice: cheaperNet, commission: commissionCents(Math.round(cheaperNet * 100), { percent: 10, fixedCents: 0 }) / 100, price: a.offer.price });

    const offers = (await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body;
    expect(offers.map((offer) => offer.seller.name)).toEqual(['Cheap Keys', 'Keystore']);
    // The catalogue shows the best price and every seller's stock, at once.
    const page = (await call<{ price: number; stock: number }>(undefined, 'GET', `/api/games/${game}`)).body;
    expect(page).toMatchObject({ price: a.offer.price, stock: 5 });

    // Same serial, other spelling (spaces, dashes, case), another seller: a duplicate, never stored twice.
    const b = await activeSeller('Second Keys', game, 50, ['BBBB-1111-YYYY']);
    const again = await call(b.user, 'POST', `/api/seller/offers/${b.offer._id}/keys`, { keys: ['aaaa 1111 xxxx', 'ab', 'BBBB1111YYYY', 'NEW-KEY-ZZZ1', '  '] });
    expect(again.body).toEqual({ added: 1, duplicates: 2, invalid: 2 });
    expect((await call<Array<{ masked: string; state: string }>>(b.user, 'GET', `/api/seller/offers/${b.offer._id}/keys`)).body).toEqual([
      expect.objectContaining({ masked: expect.stringMatching(/•+YYYY$/), state: 'available' }),
      expect.objectContaining({ masked: expect.stringMatching(/•+ZZZ1$/), state: 'available' }),
    ]);

    // One seller never sees or touches another's offers or keys.
    expect((await call(a.user, 'GET', `/api/seller/offers/${b.offer._id}/keys`)).status).toBe(404);
    expect((await call(a.user, 'PATCH', `/api/seller/offers/${b.offer._id}`, { status: 'paused' })).status).toBe(404);
    expect((await call(a.user, 'POST', `/api/seller/offers/${b.offer._id}/keys`, { keys: ['STEAL-1234'] })).status).toBe(404);
    expect((await call(a.user, 'POST', '/api/seller/offers', { gameId: game, netPrice: 1 })).body).toEqual({ error: sellerMessages.offerExists });

    // Paused: its keys leave the store at once.
    expect((await call(a.user, 'PATCH', `/api/seller/offers/${a.offer._id}`, { status: 'paused' })).body).toMatchObject({ offer: { status: 'paused' } });
    expect((await call<{ stock: number }>(undefined, 'GET', `/api/games/${game}`)).body.stock).toBe(5);
    expect((await call(a.user, 'PATCH', `/api/seller/offers/${a.offer._id}`, { status: 'active' })).status).toBe(200);
  });

  it('sells the best offer first, splits a line, delivers the seller keys, and the ledger balances', async () => {
    const game = await t.gameWithStock(2, 2);
    const seller = await activeSeller('Split Keys', game, 0.2, ['SPLIT-0001-AAAA', 'SPLIT-0002-AAAA']);
    const buyer = await t.buyer();
    const placed = await t.placeOrder(buyer, [{ gameId: game, quantity: 3 }]);
    expect(placed.statusCode).toBe(201);
    const order = placed.json<{ order: { _id: string; lines: Array<{ seller: string; quantity: number; unitPrice: number }> } }>().order;
    expect(order.lines.map((line) => [line.seller, line.quantity])).toEqual([
      ['Split Keys', 2],
      ['Keystore', 1],
    ]);
    expect((await t.pay(buyer, order._id)).statusCode).toBe(200);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });

    const purchases = (await call<Array<{ _id: string }>>(buyer, 'GET', '/api/purchases')).body;
    const serials = await Promise.all(purchases.map(async (purchase) => (await call<{ key: string }>(buyer, 'GET', `/api/purchases/${purchase._id}/key`)).body.key));
    expect(serials).toEqual(expect.arrayContaining(['SPLIT-0001-AAAA', 'SPLIT-0002-AAAA']));
    // The receipt carries a link, never a key.
    for (const mail of await t.mailsTo(buyer.email)) for (const serial of serials) expect(mail.text + mail.html).not.toContain(serial);

    const view = (await call<Seller>(seller.user, 'GET', '/api/seller')).body;
    const price = seller.offer.price * 100;
    expect(view.balance).toEqual({ held: ((price - (price - 20)) * 2) / 100, available: 0, currency: 'EUR' });
    const sales = (await call<{ items: Array<{ quantity: number; state: string; net: number }> }>(seller.user, 'GET', '/api/seller/sales')).body;
    expect(sales.items).toEqual([expect.objectContaining({ quantity: 2, state: 'held', net: 0.4 })]);
    expect(JSON.stringify(sales)).not.toContain(buyer.email);
    expect((await call<Array<{ state: string }>>(seller.user, 'GET', `/api/seller/offers/${seller.offer._id}/keys`)).body.map((key) => key.state)).toEqual(['sold', 'sold']);

    const balance = (await call<LedgerBalance>(admin, 'GET', '/api/admin/ledger/balance')).body;
    expect(balance.total).toBe(0);
  });

  it('refuses an unbalanced ledger entry in the database itself', async () => {
    // On PostgreSQL the deferred trigger fires at commit, and the driver wraps its message in the cause.
    const refusal = (work: Promise<unknown>) => work.then(() => 'done', (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`);
    expect(
      await refusal(
        t.database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into ledger_entries (id, kind) values ('unbalanced-entry-1', 'sale')`);
          await tx.execute(sql`insert into ledger_lines (entry_id, account, amount_cents) values ('unbalanced-entry-1', 'payments', -100), ('unbalanced-entry-1', 'commission', 99)`);
        }),
      ),
    ).toMatch(/does not balance/);
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into ledger_entries (id, kind) values ('balanced-entry-1', 'transfer')`);
      await tx.execute(sql`insert into ledger_lines (entry_id, account, amount_cents) values ('balanced-entry-1', 'commission', -100), ('balanced-entry-1', 'payments', 100)`);
    });
    expect(await refusal(t.database.db.execute(sql`update ledger_lines set amount_cents = amount_cents + 1 where entry_id = 'balanced-entry-1'`))).toMatch(/append-only/);
    expect(await refusal(t.database.db.execute(sql`delete from ledger_entries where id = 'balanced-entry-1'`))).toMatch(/append-only/);
    const [left] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ledger_entries where id = 'unbalanced-entry-1'`);
    expect(left!.n).toBe(0);
  });

  it('refuses an entry with one line or none, a line on an account that does not exist, and a posting that takes a held balance below zero', async () => {
    const refusal = (work: Promise<unknown>) => work.then(() => 'done', (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`);
    // An entry written with no line at all: the lines' trigger never fires for it, the entries' one does.
    expect(await refusal(t.database.db.transaction((tx) => tx.execute(sql`insert into ledger_entries (id, kind) values ('empty-entry-1', 'sale')`)))).toMatch(/does not balance/);
    expect(
      await refusal(
        t.database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into ledger_entries (id, kind) values ('one-line-entry-1', 'sale')`);
          await tx.execute(sql`insert into ledger_lines (entry_id, account, amount_cents) values ('one-line-entry-1', 'payments', 100)`);
        }),
      ),
    ).toMatch(/does not balance/);
    // Every line names an account of the accounts table: a typo is refused, not a new account.
    expect(
      await refusal(
        t.database.db.transaction(async (tx) => {
          await tx.execute(sql`insert into ledger_entries (id, kind) values ('typo-entry-1', 'transfer')`);
          await tx.execute(sql`insert into ledger_lines (entry_id, account, amount_cents) values ('typo-entry-1', 'payouts', -100), ('typo-entry-1', 'payment', 100)`);
        }),
      ),
    ).toMatch(/foreign key|violates/);
    const accounts = await queryRows<{ id: string; kind: string; may_go_negative: boolean }>(t.database.db, sql`select id, kind, may_go_negative from ledger_accounts where seller_id is null order by id`);
    expect(accounts).toEqual([
      { id: 'commission', kind: 'commission', may_go_negative: true },
      { id: 'payments', kind: 'payments', may_go_negative: true },
      { id: 'payouts', kind: 'payouts', may_go_negative: false },
    ]);
    // The ledger's own postings check the rule: a release cannot take more than a seller holds.
    const { postEntry, LedgerRuleBroken } = await import('../ledger/store.ts');
    const broken = await t.database.db
      .transaction((tx) => postEntry(tx, { kind: 'release', sellerId: 'nobody-here' }, [{ account: 'seller:nobody-here:held', amountCents: -1 }, { account: 'seller:nobody-here:available', amountCents: 1 }]))
      .then(() => undefined, (error: unknown) => error);
    expect(broken).toBeInstanceOf(LedgerRuleBroken);
    // A posting whose lines cancel out writes no entry at all.
    expect(await t.database.db.transaction((tx) => postEntry(tx, { kind: 'fee', sellerId: 'nobody-here' }, [{ account: 'seller:nobody-here:available', amountCents: 0 }, { account: 'commission', amountCents: 0 }]))).toBeUndefined();
    const balance = (await call<LedgerBalance>(admin, 'GET', '/api/admin/ledger/balance')).body;
    expect(balance.total).toBe(0);
  });

  it('holds the money, releases it after the hold, pays out once, and reverses a refund', async () => {
    const game = await t.gameWithStock(0, 3);
    const seller = await activeSeller('Payout Keys', game, 15, ['PAY-0001-AAAA', 'PAY-0002-AAAA', 'PAY-0003-AAAA']);
    expect((await call(admin, 'PATCH', `/api/admin/sellers/${seller.seller._id}`, { holdDays: 0 })).status).toBe(200);
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 2);
    await t.pay(buyer, order._id);
    expect(await t.app.ledger.releaseDue()).toBeGreaterThanOrEqual(1);
    expect((await call<Seller>(seller.user, 'GET', '/api/seller')).body.balance).toMatchObject({ held: 0, available: 30 });

    const run = await call<{ created: Payout[] }>(admin, 'POST', '/api/admin/payouts/run');
    expect(run.body.created.filter((payout) => payout.sellerId === seller.seller._id)).toEqual([expect.objectContaining({ amount: 30, status: 'pending' })]);
    expect((await call<{ created: Payout[] }>(admin, 'POST', '/api/admin/payouts/run')).body.created.filter((payout) => payout.sellerId === seller.seller._id)).toEqual([]);
    expect((await call<Seller>(seller.user, 'GET', '/api/seller')).body.balance.available).toBe(0);
    const payoutId = run.body.created.find((payout) => payout.sellerId === seller.seller._id)!._id;
    expect((await call(admin, 'POST', `/api/admin/payouts/${payoutId}/paid`, { reference: 'SEPA-123' })).body).toMatchObject({ status: 'paid', reference: 'SEPA-123' });
    expect((await call(admin, 'POST', `/api/admin/payouts/${payoutId}/paid`, { reference: 'SEPA-123' })).status).toBe(409);
    expect((await call<Payout[]>(seller.user, 'GET', '/api/seller/payouts')).body).toEqual([expect.objectContaining({ _id: payoutId, status: 'paid' })]);

    // A refund after the payout: the seller's balance goes below zero; the unrevealed keys go back on sale.
    const refunded = await call(admin, 'POST', `/api/admin/orders/${order._id}/refund`, { reason: 'test' });
    expect(refunded.status).toBe(200);
    const after = (await call<Seller>(seller.user, 'GET', '/api/seller')).body;
    expect(after.balance).toEqual({ held: 0, available: -30, currency: 'EUR' });
    expect(after.keysInStock).toBe(3);
    const ledger = (await call<{ items: Array<{ kind: string; amount: number }> }>(seller.user, 'GET', '/api/seller/ledger')).body.items.map((entry) => [entry.kind, entry.amount]);
    expect(ledger).toEqual(expect.arrayContaining([['sale', 33], ['commission', -3], ['release', 30], ['payout', -30], ['refund', -30]]));
    const trial = (await call<LedgerBalance>(admin, 'GET', '/api/admin/ledger/balance')).body;
    expect(trial.total).toBe(0);
    // The dashboard: the commission account, and what the sellers (not the house) are owed, payouts in transit included.
    const owed = trial.accounts
      .filter((account) => account.account === 'payouts' || (account.account.startsWith('seller:') && !account.account.startsWith('seller:house:')))
      .reduce((sum, account) => sum + Math.round(account.balance * 100), 0);
    const stats = (await call<{ marketplace: { commissionEarned: number; owedToSellers: number } }>(admin, 'GET', '/api/admin/stats')).body;
    expect(stats.marketplace).toEqual({ commissionEarned: trial.accounts.find((account) => account.account === 'commission')!.balance, owedToSellers: owed / 100 });
  });

  it('takes a suspended seller out of the store at once and refuses its API key', async () => {
    const game = await t.gameWithStock(0, 4);
    const seller = await activeSeller('Suspended Keys', game, 3, ['SUSP-0001-AAAA']);
    const key = (await call<{ key: string }>(seller.user, 'POST', '/api/seller/api-keys', { name: 'erp', password: BUYER_PASSWORD })).body.key;
    expect((await call<Seller>({ 'x-api-key': key }, 'GET', '/api/seller')).body.name).toBe('Suspended Keys');
    expect((await call<Array<{ name: string }>>(seller.user, 'GET', '/api/seller/api-keys')).body).toEqual([expect.objectContaining({ name: 'erp', lastUsedAt: expect.any(String) })]);
    expect(JSON.stringify((await call(seller.user, 'GET', '/api/seller/api-keys')).body)).not.toContain(key);
    expect((await call<{ stock: number }>(undefined, 'GET', `/api/games/${game}`)).body.stock).toBe(1);
    await call(admin, 'PATCH', `/api/admin/sellers/${seller.seller._id}`, { status: 'suspended' });
    expect((await call<{ stock: number }>(undefined, 'GET', `/api/games/${game}`)).body.stock).toBe(0);
    expect((await call({ 'x-api-key': key }, 'GET', '/api/seller')).status).toBe(403);
    expect((await call({ 'x-api-key': 'ks_nothing' }, 'GET', '/api/seller')).status).toBe(401);
  });

  it('answers 409 with the new prices when the best offer costs more than the cart showed', async () => {
    const game = await t.gameWithStock(0, 5);
    const seller = await activeSeller('Dear Keys', game, 5, ['DEAR-0001-AAAA']);
    const buyer = await t.buyer();
    const shown = seller.offer.price;
    await call(seller.user, 'PATCH', `/api/seller/offers/${seller.offer._id}`, { netPrice: 6 });
    const answer = await t.placeOrder(buyer, [{ gameId: game, quantity: 1, expectedPrice: shown }]);
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual({ error: sellerMessages.priceChanged, prices: [{ gameId: game, price: 6.6 }] });
    // Nothing was reserved.
    expect((await call<Array<{ state: string }>>(seller.user, 'GET', `/api/seller/offers/${seller.offer._id}/keys`)).body[0]!.state).toBe('available');
  });

  it('records a release that finds nothing held as done, once, and never releases a later sale before its hold is over', async () => {
    const game = await t.gameWithStock(0, 3);
    const { seller } = await activeSeller('Early Keys', game, 10, ['EARLY-0001-AAAA']);
    const { ledger } = t.app;
    const db = t.database.db;
    const day = 86_400_000;
    const now = Date.now();
    const sale = (line: string, at: number) => db.transaction((tx) => ledger.postSale(tx, { orderId: `order-${line}`, lineId: line, sellerId: seller._id, priceCents: 1000, commissionCents: 100 }, new Date(at)));
    const balances = async () => (await ledger.balances([seller._id])).get(seller._id)!;
    // A sold long ago and released; B sold now, held 14 days.
    await sale('early-a', now - 30 * day);
    await sale('early-b', now);
    // Every seller's due sales are released with it (the house's and earlier tests'): only this seller's balance is read.
    await ledger.releaseDue(new Date(now));
    expect(await balances()).toEqual({ held: 900, available: 900 });
    // A refunded: the seller's net comes from its held balance first, which is B's money.
    await db.transaction((tx) => ledger.postRefunds(tx, 'order-early-a', ['early-a']));
    expect(await balances()).toEqual({ held: 0, available: 900 });
    // B's hold ends with nothing left held: released as done, with no entry moving money.
    await ledger.releaseDue(new Date(now + 15 * day));
    expect(await balances()).toEqual({ held: 0, available: 900 });
    expect((await ledger.saleStates(['early-b'])).get('early-b')).toMatchObject({ released: true });
    // C, sold after, stays held until its own hold is over: B's release is never asked again.
    await sale('early-c', now + 15 * day);
    await ledger.releaseDue(new Date(now + 16 * day));
    expect(await balances()).toEqual({ held: 900, available: 900 });
    await ledger.releaseDue(new Date(now + 30 * day));
    expect(await balances()).toEqual({ held: 0, available: 1800 });
    expect((await call<LedgerBalance>(admin, 'GET', '/api/admin/ledger/balance')).body.total).toBe(0);
  });
});
