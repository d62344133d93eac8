// Sellers who hand over keys just in time (issue 24), through the real app and fake sellers on
// loopback: the signed webhook, reservations confirmed at placement, keys provided after payment, and
// failover so that a seller's failure is never the buyer's: the next offer, or that line's money back.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityMessages, sellerDeliveryMessages, type GameOffer, type LedgerBalance, type Offer, type Reservation, type Seller } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { BUYER_PASSWORD, ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { signatureHeader, verifySignature } from './signature.ts';
import { startFakeSeller, type FakeBehaviour, type FakeSeller } from './test-kit.ts';
import { refusedAddress, WebhookClient } from './webhook-client.ts';

describe('the webhook signature and its address', () => {
  it('verifies like the README receiver: the right secret within five minutes, nothing else', () => {
    const body = JSON.stringify({ type: 'ping' });
    const header = signatureHeader('whsec_right', body);
    expect(verifySignature(header, body, 'whsec_right')).toBe(true);
    expect(verifySignature(header, body, 'whsec_wrong')).toBe(false);
    expect(verifySignature(header, `${body} `, 'whsec_right')).toBe(false);
    const old = signatureHeader('whsec_right', body, Date.now() - 6 * 60_000);
    expect(verifySignature(old, body, 'whsec_right')).toBe(false);
    expect(verifySignature('t=abc,v1=00', body, 'whsec_right')).toBe(false);
  });

  it("is checked by the README's ten-line receiver: the right secret, within five minutes", async () => {
    const readme = await readFile(new URL('../../../../../README.md', import.meta.url), 'utf8');
    const snippet = /checks it in ten lines:\n\n```js\n([\s\S]*?)```/.exec(readme)![1]!;
    // The snippet as written, its import handed in.
    const receiver = new Function('createHmac', 'timingSafeEqual', `${snippet.replace(/^import .*$/m, '')}\nreturn verify;`)(createHmac, timingSafeEqual) as (header: string, body: string, secret: string) => boolean;
    const body = JSON.stringify({ type: 'provide', reservationId: 'r1', quantity: 1 });
    expect(receiver(signatureHeader('whsec_right', body), body, 'whsec_right')).toBe(true);
    expect(receiver(signatureHeader('whsec_right', body), body, 'whsec_wrong')).toBe(false);
    expect(receiver(signatureHeader('whsec_right', body, Date.now() - 10 * 60_000), body, 'whsec_right')).toBe(false);
    expect(receiver(signatureHeader('whsec_right', body), body.replace('r1', 'r2'), 'whsec_right')).toBe(false);
  });

  it('refuses private, loopback and link-local addresses and plain http in production', async () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '192.168.0.10', '172.16.5.5', '169.254.169.254', '::1', 'fe80::1', '::ffff:127.0.0.1', '0.0.0.0', '100.64.0.1']) {
      expect(refusedAddress(address), address).toBeDefined();
    }
    expect(refusedAddress('93.184.216.34')).toBeUndefined();
    const production = new WebhookClient({ production: true });
    expect(await production.problem('http://93.184.216.34/hook')).toBe('only https');
    expect(await production.problem('https://127.0.0.1/hook')).toMatch(/loopback/);
    expect(await production.problem('https://[::ffff:10.0.0.1]/hook')).toMatch(/private/);
    expect(await production.problem('https://localhost/hook')).toMatch(/loopback/);
    expect(await production.problem('https://93.184.216.34/hook')).toBeUndefined();
    // Outside production a test may call loopback over http, and only loopback.
    const development = new WebhookClient({ production: false });
    expect(await development.problem('http://127.0.0.1:9/hook')).toBeUndefined();
    expect(await development.problem('http://localhost:9/hook')).toBeUndefined();
    expect(await development.problem('http://93.184.216.34/hook')).toBe('only https');
    // No redirect is followed, and an answer over 64 KB is refused.
    const server = createServer((request, response) => {
      if (request.url === '/moved') response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: ['x'.repeat(70 * 1024)] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await development.call(`${base}/moved`, 'whsec_x', { type: 'ping' }, 1000)).toMatchObject({ ok: false, status: 302, error: 'redirects are not followed' });
    expect(await development.call(`${base}/big`, 'whsec_x', { type: 'ping' }, 1000)).toMatchObject({ ok: false, error: 'the answer is over 64 KB' });
    await new Promise((resolve) => server.close(resolve));
    const refused = await production.call('https://127.0.0.1:9/hook', 'whsec_x', { type: 'ping' }, 1000);
    expect(refused).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/refused/) });
  });
});

describe('declared stock', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  const fakes: FakeSeller[] = [];
  const call = <T>(who: Buyer | undefined, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    t.app
      .inject({ method, url, headers: who ? who.headers : {}, ...(payload === undefined ? {} : { payload: payload as object }) })
      .then((answer) => ({ status: answer.statusCode, body: answer.body ? answer.json<T>() : (undefined as T) }));

  /** An approved seller with a declared offer of `game` at `net` euro, served by a fake seller of `behaviour`. */
  const declaredSeller = async (behaviour: FakeBehaviour, game: string, net: number, stock = 10) => {
    const fake = await startFakeSeller(behaviour, { delayMs: 1500 });
    fakes.push(fake);
    const user = await t.buyer();
    const name = `Just In Time ${fakes.length} ${behaviour}`;
    const applied = await call<{ seller: Seller }>(user, 'POST', '/api/sellers', { name, contactEmail: 'jit@example.com', country: 'NL' });
    expect((await call(admin, 'PATCH', `/api/admin/sellers/${applied.body.seller._id}`, { status: 'active', holdDays: 0 })).status).toBe(200);
    const offer = (await call<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId: game, netPrice: net })).body.offer;
    const hook = await call<{ url: string; secret: string }>(user, 'PUT', '/api/seller/webhook', { url: fake.url, password: BUYER_PASSWORD });
    expect(hook.status).toBe(200);
    fake.secret = hook.body.secret;
    const declared = await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, { delivery: 'declared', declaredStock: stock });
    expect(declared.body.offer).toMatchObject({ delivery: 'declared', declaredStock: stock, stock });
    return { user, fake, offer: declared.body.offer, seller: applied.body.seller };
  };

  /** A net price whose buyer's price is a little under the house's, so the seller wins and the house is within 10 %. */
  const justUnderHouse = async (game: string) => {
    const [house] = (await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body;
    return Math.floor((house!.price * 100 - 10) / 1.1) / 100;
  };

  const deliver = async (buyer: Buyer, orderId: string) => {
    expect((await t.pay(buyer, orderId)).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    return t.getOrder(buyer, orderId);
  };
  const libraryKeys = (orderId: string) => queryRows<{ line_id: string; n: number }>(t.database.db, sql`select line_id, count(*)::int as n from product_keys where order_id = ${orderId} and voided_at is null group by line_id`);
  const balance = async () => (await call<LedgerBalance>(admin, 'GET', '/api/admin/ledger/balance')).body.total;

  beforeAll(async () => {
    t = await ordersTestApp({ env: { SELLER_RESERVE_TIMEOUT_MS: '400', SELLER_PROVIDE_TIMEOUT_MS: '400', SELLER_PROVIDE_RETRY_MS: '20', RATE_LIMIT_SCALE: '10' } });
    admin = await t.buyer('admin');
    // Buyers here buy many keys of one title, many times a day, which the default risk rules hold for review.
    await t.riskRulesWithout('many-copies', 'third-paid-order-24h');
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  it('registers a webhook with its secret shown once, rotates it, and pings signed', async () => {
    const fake = await startFakeSeller('good');
    fakes.push(fake);
    const user = await t.buyer();
    const applied = await call<{ seller: Seller }>(user, 'POST', '/api/sellers', { name: 'Hook Keys', contactEmail: 'hook@example.com', country: 'DE' });
    await call(admin, 'PATCH', `/api/admin/sellers/${applied.body.seller._id}`, { status: 'active' });
    const offer = (await call<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId: await t.gameWithStock(3, 7), netPrice: 3 })).body.offer;
    expect((await call(user, 'PATCH', `/api/seller/offers/${offer._id}`, { delivery: 'declared', declaredStock: 3 })).body).toEqual({ error: sellerDeliveryMessages.declaredNeedsWebhook });
    expect((await call(user, 'POST', '/api/seller/offers', { gameId: await t.gameWithStock(3, 19), netPrice: 3, delivery: 'declared', declaredStock: 3 })).body).toEqual({
      error: sellerDeliveryMessages.declaredNeedsWebhook,
    });
    expect((await call(user, 'PUT', '/api/seller/webhook', { url: 'ftp://example.com/x', password: BUYER_PASSWORD })).body).toEqual({ error: sellerDeliveryMessages.webhookUrlInvalid });
    expect((await call(user, 'PUT', '/api/seller/webhook', { url: 'https://user:pw@example.com/x', password: BUYER_PASSWORD })).status).toBe(400);
    for (const url of ['http://a:b', 'https://%', 'https://a:99999']) expect((await call(user, 'PUT', '/api/seller/webhook', { url, password: BUYER_PASSWORD })).body, url).toEqual({ error: sellerDeliveryMessages.webhookUrlInvalid });
    const first = await call<{ url: string; secret: string }>(user, 'PUT', '/api/seller/webhook', { url: fake.url, password: BUYER_PASSWORD });
    expect(first.body.secret).toMatch(/^whsec_/);
    fake.secret = first.body.secret;
    // A change asks for the password again (issue 30): without it, or with a wrong one, nothing changes.
    expect((await call(user, 'PUT', '/api/seller/webhook', { url: 'https://elsewhere.example/hook' })).status).toBe(400);
    expect((await call(user, 'PUT', '/api/seller/webhook', { url: 'https://elsewhere.example/hook', password: 'Wrong-pass1' })).body).toEqual({ error: securityMessages.passwordWrong });
    expect((await call(user, 'POST', '/api/seller/webhook/rotate-secret', {})).status).toBe(400);
    const again = await call<{ url: string; secret?: string }>(user, 'PUT', '/api/seller/webhook', { url: `${fake.url}?v=2`, password: BUYER_PASSWORD });
    expect(again.body).toEqual({ url: `${fake.url}?v=2` });
    expect((await call<{ ok: boolean }>(user, 'POST', '/api/seller/webhook/test')).body).toMatchObject({ ok: true, status: 200 });
    expect(fake.callsOf('ping').at(-1)!.signed).toBe(true);
    const rotated = await call<{ secret: string }>(user, 'POST', '/api/seller/webhook/rotate-secret', { password: BUYER_PASSWORD });
    expect(rotated.body.secret).not.toBe(fake.secret);
    // Signed with the new secret from now on: the old one no longer verifies it.
    expect((await call<{ ok: boolean; status: number }>(user, 'POST', '/api/seller/webhook/test')).body).toMatchObject({ ok: false, status: 401 });
    fake.secret = rotated.body.secret;
    expect((await call<{ ok: boolean }>(user, 'POST', '/api/seller/webhook/test')).body.ok).toBe(true);
    expect((await call<{ url: string; secret?: string }>(user, 'GET', '/api/seller/webhook')).body).not.toHaveProperty('secret');
    // With a webhook, an offer can be declared from the start.
    const declared = await call<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId: await t.gameWithStock(3, 18), netPrice: 3, delivery: 'declared', declaredStock: 4 });
    expect(declared.status).toBe(201);
    expect(declared.body.offer).toMatchObject({ delivery: 'declared', declaredStock: 4, stock: 4 });
    // Another customer has no seller, and a seller's webhook is its own.
    expect((await call(await t.buyer(), 'PUT', '/api/seller/webhook', { url: fake.url, password: BUYER_PASSWORD })).status).toBe(404);
    expect((await call(undefined, 'GET', '/api/seller/reservations')).status).toBe(401);
  });

  it('reserves at placement, takes the keys after payment, and delivers them once', async () => {
    const game = await t.gameWithStock(5, 1);
    const { fake, offer, user } = await declaredSeller('good', game, await justUnderHouse(game));
    const offers = (await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body;
    expect(offers[0]).toMatchObject({ offerId: offer._id, stock: 10 });
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 2);
    expect(order.lines.map((line) => line.offerId)).toEqual([offer._id]);
    expect(fake.callsOf('reserve')).toHaveLength(1);
    expect(fake.callsOf('reserve')[0]).toMatchObject({ quantity: 2, signed: true });
    const paid = await deliver(buyer, order._id);
    expect(paid.deliveryStatus).toBe('Delivered');
    expect(fake.callsOf('provide')).toHaveLength(1);
    expect(await libraryKeys(order._id)).toEqual([{ line_id: expect.any(String), n: 2 }]);
    const reservations = (await call<{ items: Reservation[] }>(user, 'GET', '/api/seller/reservations')).body.items;
    expect(reservations[0]).toMatchObject({ orderId: order._id, quantity: 2, state: 'delivered' });
    expect(reservations[0]!.moves.map((move) => move.to)).toEqual(['requested', 'reserved', 'provided', 'delivered']);
    expect(reservations[0]!.attempts.map((attempt) => [attempt.type, attempt.status])).toEqual([['reserve', 200], ['provide', 200]]);
    // The promised stock went down by what was sold.
    expect((await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, {})).body.offer.declaredStock).toBe(8);
    expect(await balance()).toBe(0);
  });

  it('moves a paid line to the next offer when the seller errs, charges it the fee, and cancels', async () => {
    const game = await t.gameWithStock(5, 2);
    const { fake, seller } = await declaredSeller('error', game, await justUnderHouse(game));
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 1);
    const paid = await deliver(buyer, order._id);
    expect(paid.deliveryStatus).toBe('Delivered');
    expect(paid.lines[0]).toMatchObject({ seller: 'Keystore' });
    expect(fake.callsOf('provide')).toHaveLength(3);
    expect(await libraryKeys(order._id)).toHaveLength(1);
    await t.app.offers.declared.sendDueCancels();
    expect(fake.callsOf('cancel').map((c) => c.reservationId)).toEqual([fake.callsOf('provide')[0]!.reservationId]);
    const [fee] = await queryRows<{ amount: number }>(t.database.db, sql`select sum(l.amount_cents)::int as amount from ledger_entries e join ledger_lines l on l.entry_id = e.id where e.kind = 'fee' and l.account = ${`seller:${seller._id}:available`}`);
    expect(fee!.amount).toBeLessThan(0);
    expect(await balance()).toBe(0);
  });

  it("moves a paid line to a dearer seller within the store's extra, posting that extra as a failover extra", async () => {
    // The house holds one key, the line wants two: only the dearer seller can take it over.
    const game = await t.gameWithStock(1, 24);
    const cheap = await justUnderHouse(game);
    const { seller: failing } = await declaredSeller('error', game, cheap);
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 2);
    const paidUnit = order.lines[0]!.unitPrice;
    // A seller on no commission whose net is 5 % above what the buyer paid: within the 10 % the store adds.
    const dearUser = await t.buyer();
    const dear = (await call<{ seller: Seller }>(dearUser, 'POST', '/api/sellers', { name: 'Dearer Keys', contactEmail: 'dear@example.com', country: 'FR' })).body.seller;
    expect((await call(admin, 'PATCH', `/api/admin/sellers/${dear._id}`, { status: 'active', holdDays: 0, commissionPercent: 0, commissionFixed: 0 })).status).toBe(200);
    const net = Math.round(paidUnit * 105) / 100;
    const dearOffer = (await call<{ offer: Offer }>(dearUser, 'POST', '/api/seller/offers', { gameId: game, netPrice: net })).body.offer;
    expect((await call(dearUser, 'POST', `/api/seller/offers/${dearOffer._id}/keys`, { keys: ['DEAR-AAAA-1111', 'DEAR-BBBB-2222'] })).status).toBe(200);
    const paid = await deliver(buyer, order._id);
    expect(paid.deliveryStatus).toBe('Delivered');
    expect(paid.lines[0]).toMatchObject({ seller: 'Dearer Keys', unitPrice: paidUnit });
    const entries = await queryRows<{ kind: string; account: string; amount: number }>(
      t.database.db,
      sql`select e.kind, l.account, l.amount_cents::int as amount from ledger_entries e join ledger_lines l on l.entry_id = e.id where e.order_id = ${order._id} and e.kind in ('sale', 'commission', 'failover-extra') order by e.kind, l.account`,
    );
    const extra = Math.round(net * 100) * 2 - Math.round(paidUnit * 100) * 2;
    expect(entries).toEqual([
      { kind: 'failover-extra', account: 'commission', amount: -extra },
      { kind: 'failover-extra', account: `seller:${dear._id}:held`, amount: extra },
      { kind: 'sale', account: 'payments', amount: -Math.round(paidUnit * 100) * 2 },
      { kind: 'sale', account: `seller:${dear._id}:held`, amount: Math.round(paidUnit * 100) * 2 },
    ]);
    // The seller sees the store's extra as a commission in its favour; its failing rival paid the fee.
    const statement = (await call<{ items: Array<{ kind: string; amount: number }> }>(dearUser, 'GET', '/api/seller/ledger')).body.items;
    expect(statement.map((item) => [item.kind, item.amount]).sort()).toEqual([['commission', extra / 100], ['sale', (Math.round(paidUnit * 100) * 2) / 100]].sort());
    const [fee] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ledger_entries where kind = 'fee' and seller_id = ${failing._id}`);
    expect(fee!.n).toBe(1);
    expect(await balance()).toBe(0);
  });

  it("ignores a seller's answer that comes after the deadline, fails over, and cancels", async () => {
    const game = await t.gameWithStock(5, 14);
    const { fake } = await declaredSeller('slow-provide', game, await justUnderHouse(game));
    fake.delayMs = 700;
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 1);
    const paid = await deliver(buyer, order._id);
    expect(paid.deliveryStatus).toBe('Delivered');
    expect(paid.lines[0]!.seller).toBe('Keystore');
    expect(fake.callsOf('provide')).toHaveLength(3);
    // The seller did hand keys over, each too late: none of them is the buyer's, and the seller is told to cancel.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const handed = [...fake.handedOver.values()].flat();
    expect(handed.length).toBeGreaterThan(0);
    const [purchase] = (await call<Array<{ _id: string; orderId: string }>>(buyer, 'GET', '/api/purchases')).body.filter((p) => p.orderId === order._id);
    const key = (await call<{ key: string }>(buyer, 'GET', `/api/purchases/${purchase!._id}/key`)).body.key;
    expect(handed).not.toContain(key);
    await t.app.offers.declared.sendDueCancels();
    expect(fake.callsOf('cancel')).toHaveLength(1);
  });

  it('fails at once on the wrong number of keys or a key the store knows, and moves on', async () => {
    const game = await t.gameWithStock(5, 3);
    const net = await justUnderHouse(game);
    const wrong = await declaredSeller('wrong-count', game, net);
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 1);
    expect((await deliver(buyer, order._id)).deliveryStatus).toBe('Delivered');
    expect(wrong.fake.callsOf('provide')).toHaveLength(1);

    const game2 = await t.gameWithStock(5, 4);
    const dup = await declaredSeller('duplicate', game2, await justUnderHouse(game2));
    const first = await t.order(buyer, game2, 1);
    expect((await deliver(buyer, first.order._id)).lines[0]!.seller).toBe(dup.seller.name);
    const second = await t.order(buyer, game2, 1);
    const after = await deliver(buyer, second.order._id);
    expect(after.deliveryStatus).toBe('Delivered');
    expect(after.lines[0]!.seller).toBe('Keystore');
    const failed = (await call<{ items: Reservation[] }>(dup.user, 'GET', '/api/seller/reservations')).body.items[0]!;
    expect(failed).toMatchObject({ state: 'failed' });
    expect(failed.moves.at(-1)!.reason).toMatch(/already known/);
  });

  it('refunds only the line no offer can replace, with a mail, and delivers the rest', async () => {
    const failing = await t.gameWithStock(0, 5);
    await declaredSeller('error', failing, 4);
    const fine = await t.gameWithStock(5, 6);
    const buyer = await t.buyer();
    const placed = await t.placeOrder(buyer, [
      { gameId: failing, quantity: 1 },
      { gameId: fine, quantity: 1 },
    ]);
    expect(placed.statusCode).toBe(201);
    const orderId = placed.json<{ order: { _id: string } }>().order._id;
    const paid = await deliver(buyer, orderId);
    expect(paid.deliveryStatus).toBe('Delivered');
    const refunded = await queryRows<{ game_id: string }>(t.database.db, sql`select game_id from order_lines where order_id = ${orderId} and refunded_at is not null`);
    expect(refunded.map((line) => line.game_id)).toEqual([failing]);
    expect(await libraryKeys(orderId)).toHaveLength(1);
    const mails = await t.mailsTo(buyer.email);
    expect(mails.some((mail) => /refunded part of your order/.test(mail.text) && /could not hand over/.test(mail.text))).toBe(true);
    expect(await balance()).toBe(0);
  });

  it('moves a refused reservation to the next offer before the payment page, or answers 409 when none is left', async () => {
    // Two sellers at one price: the older refuses, the other takes the line at the same price.
    const game = await t.gameWithStock(5, 8);
    const net = await justUnderHouse(game);
    const refusing = await declaredSeller('refuse', game, net);
    const good = await declaredSeller('good', game, net);
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 1);
    expect(order.lines.map((line) => line.offerId)).toEqual([good.offer._id]);
    expect(refusing.fake.callsOf('reserve')).toHaveLength(1);
    expect(good.fake.callsOf('reserve')).toHaveLength(1);
    // With only the house left, dearer than the price shown: 409 with its price, and the order is gone.
    const game3 = await t.gameWithStock(5, 12);
    await declaredSeller('refuse', game3, await justUnderHouse(game3));
    const [house] = (await call<GameOffer[]>(undefined, 'GET', `/api/games/${game3}/offers`)).body.filter((o) => o.seller.name === 'Keystore');
    const dearer = await t.placeOrder(await t.buyer(), [{ gameId: game3, quantity: 1 }]);
    expect(dearer.statusCode).toBe(409);
    expect(dearer.json()).toMatchObject({ prices: [{ gameId: game3, price: house!.price }] });

    const lonely = await t.gameWithStock(0, 9);
    const silent = await declaredSeller('slow', lonely, 2);
    const answer = await t.placeOrder(await t.buyer(), [{ gameId: lonely, quantity: 1 }]);
    expect(answer.statusCode).toBe(409);
    expect(silent.fake.callsOf('reserve')).toHaveLength(1);
    // Its stock came back only for a buyer-side end; a refusal is the seller's, so the promise shrank.
    await t.app.offers.declared.sendDueCancels();
    expect(silent.fake.callsOf('cancel')).toHaveLength(1);
  });

  it('gives the promised stock back and cancels when an unpaid order is cancelled', async () => {
    const game = await t.gameWithStock(0, 10);
    const { fake, offer, user } = await declaredSeller('good', game, 2, 4);
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 3);
    expect((await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, {})).body.offer.declaredStock).toBe(1);
    expect((await call(buyer, 'POST', `/api/orders/${order._id}/cancel`)).status).toBe(200);
    expect((await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, {})).body.offer.declaredStock).toBe(4);
    await t.app.offers.declared.sendDueCancels();
    expect(fake.callsOf('cancel')).toHaveLength(1);
  });

  it('pauses an offer after three failed reservations in a row and tells its seller', async () => {
    const game = await t.gameWithStock(20, 11);
    const { offer, user } = await declaredSeller('error', game, await justUnderHouse(game));
    for (let i = 0; i < 3; i += 1) {
      const buyer = await t.buyer();
      const { order } = await t.order(buyer, game, 1);
      await deliver(buyer, order._id);
    }
    const after = (await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, {})).body.offer;
    expect(after).toMatchObject({ status: 'paused', pausedAfterFailures: true });
    const offers = (await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body;
    expect(offers.map((o) => o.offerId)).not.toContain(offer._id);
    const bell = (await call<Array<{ title: string; text: string }>>(user, 'GET', '/api/notifications')).body;
    expect(JSON.stringify(bell)).toMatch(/paused after 3 failed reservations/);
    // Resuming starts over.
    expect((await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, { status: 'active' })).body.offer).toMatchObject({ status: 'active', pausedAfterFailures: false });
    // A pause of the seller's own is not one after failures.
    expect((await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, { status: 'paused' })).body.offer).toMatchObject({ status: 'paused', pausedAfterFailures: false });
  });

  it('scores a seller from outcomes, starting at 90, and takes it out of the store below the floor', async () => {
    const game = await t.gameWithStock(40, 13);
    const { fake, offer, user, seller } = await declaredSeller('good', game, await justUnderHouse(game), 40);
    expect((await call<Seller>(user, 'GET', '/api/seller')).body.score).toEqual({ value: 90, onFirstTry: 1, p90ProvideSeconds: 0, claimsPer100: 0, refunds: 0, deliveries: 0 });
    const buyer = await t.buyer();
    for (let i = 0; i < 20; i += 1) {
      const { order } = await t.order(buyer, game, 1);
      await deliver(buyer, order._id);
    }
    fake.behaviour = 'error';
    const { order } = await t.order(buyer, game, 1);
    expect((await deliver(buyer, order._id)).lines[0]!.seller).toBe('Keystore');
    const score = (await call<Seller>(user, 'GET', '/api/seller')).body.score;
    expect(score).toMatchObject({ deliveries: 21, onFirstTry: 0.952 });
    expect(score.value).toBe(Math.round((21 * (100 * 20) / 21 + 900) / 31));
    // The badge beside the name on the game page.
    fake.behaviour = 'good';
    await t.app.sellers.refreshScores();
    expect((await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body.find((o) => o.offerId === offer._id)!.seller.score).toBe(score.value);
    // The owner raises the floor above it: with 20 deliveries counted, the seller's offers leave the store.
    expect((await call(admin, 'PATCH', '/api/admin/settings', { sellerScoreFloor: score.value + 1 })).status).toBe(200);
    expect((await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body.map((o) => o.offerId)).not.toContain(offer._id);
    expect((await call<{ items: Array<{ _id: string; score: { value: number } }> }>(admin, 'GET', '/api/admin/sellers')).body.items.find((s) => s._id === seller._id)!.score.value).toBe(score.value);
    expect((await call(admin, 'PATCH', '/api/admin/settings', { sellerScoreFloor: 80 })).status).toBe(200);
    expect((await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body.map((o) => o.offerId)).toContain(offer._id);
  });

  it('refunds only the failed part of a line split with the house, and delivers the house part', async () => {
    const game = await t.gameWithStock(5, 15);
    await declaredSeller('error', game, await justUnderHouse(game), 1);
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game, 2);
    expect(order.lines.map((line) => [line.seller.startsWith('Just In Time'), line.quantity])).toEqual([[true, 1], [false, 1]]);
    const paid = await deliver(buyer, order._id);
    expect(paid.deliveryStatus).toBe('Delivered');
    const refunded = await queryRows<{ seller_name: string }>(t.database.db, sql`select seller_name from order_lines where order_id = ${order._id} and refunded_at is not null`);
    expect(refunded).toHaveLength(1);
    expect((await libraryKeys(order._id)).map((row) => row.n)).toEqual([1]);
    expect(await balance()).toBe(0);
  });

  it('counts refused reservations at placement for the breaker: three in a row pause the offer', async () => {
    const game = await t.gameWithStock(10, 16);
    const net = await justUnderHouse(game);
    const refusing = await declaredSeller('refuse', game, net);
    await declaredSeller('good', game, net);
    for (let i = 0; i < 3; i += 1) expect((await t.placeOrder(await t.buyer(), [{ gameId: game, quantity: 1 }])).statusCode).toBe(201);
    expect((await call<{ offer: Offer }>(refusing.user, 'PATCH', `/api/seller/offers/${refusing.offer._id}`, {})).body.offer.status).toBe('paused');
    expect(refusing.fake.callsOf('reserve')).toHaveLength(3);
  });

  it('hides an offer with more than 20 % of at least 5 reservations failed in the hour: 15, then 30, then 60 minutes', async () => {
    const game = await t.gameWithStock(50, 17);
    const { fake, offer, user } = await declaredSeller('good', game, await justUnderHouse(game), 50);
    const buyer = await t.buyer();
    const buy = async (behaviour: FakeBehaviour) => {
      fake.behaviour = behaviour;
      const { order } = await t.order(buyer, game, 1);
      expect((await deliver(buyer, order._id)).deliveryStatus).toBe('Delivered');
    };
    const hiddenMinutes = async () => {
      const hidden = (await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, {})).body.offer.hiddenUntil;
      return hidden === null ? null : Math.round((new Date(hidden).getTime() - Date.now()) / 60_000);
    };
    const listed = async () => (await call<GameOffer[]>(undefined, 'GET', `/api/games/${game}/offers`)).body.some((o) => o.offerId === offer._id);
    /** The test clock: the hidden time is over, and the job brings the offer back. */
    const timePasses = async () => {
      await t.database.db.execute(sql`update offers set hidden_until = now() - interval '1 second' where id = ${offer._id}`);
      await t.app.offers.declared.reopenOffers();
      expect(await listed()).toBe(true);
    };
    for (const behaviour of ['good', 'good', 'good', 'error'] as const) await buy(behaviour);
    expect(await hiddenMinutes()).toBeNull(); // 1 of 4: under 5 reservations
    await buy('good');
    await buy('error'); // 2 of 6 failed
    expect(await hiddenMinutes()).toBe(15);
    expect(await listed()).toBe(false);
    await timePasses();
    await buy('good');
    await buy('error');
    expect(await hiddenMinutes()).toBe(30);
    await timePasses();
    await buy('good');
    await buy('error');
    expect(await hiddenMinutes()).toBe(60);
    // Never two failures in a row here, so never paused; and the seller heard of each time.
    expect((await call<{ offer: Offer }>(user, 'PATCH', `/api/seller/offers/${offer._id}`, {})).body.offer.status).toBe('active');
    const bell = (await call<Array<{ text: string }>>(user, 'GET', '/api/notifications')).body.map((n) => n.text);
    expect(bell.filter((text) => /hidden for (15|30|60) minutes/.test(text))).toHaveLength(3);
  });
});
