// Buying without an account (issue 29): a guest's order by e-mail, its signed link for the order page,
// the payment and the keys, the owner's guest limits, and the orders joining the account that later
// proves the e-mail. Through the real app, as a browser without a session calls it.
import { usernameWith } from '../../test/accounts.ts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, orderMessages, type CreateOrderAnswer, type Order, type OrderKeys, type Purchase, type TestPaymentAnswer } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { ordersTestApp, PAYING_CARD, type Buyer, type OrdersTestApp } from './test-kit.ts';

let t: OrdersTestApp;
let admin: Buyer;
let guests = 0;
const newGuest = () => `guest.${process.pid.toString(36)}${(guests += 1)}${Math.random().toString(36).slice(2, 6)}@gmail.com`;

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** A guest's order of `quantity` keys of `gameId`; answers the 201's body. */
async function guestOrder(email: string, gameId: string, quantity = 1, headers: Record<string, string> = {}): Promise<CreateOrderAnswer> {
  const answer = await call('POST', '/api/orders', { items: [{ gameId, quantity }], email }, headers);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json<CreateOrderAnswer>();
}

const payByLink = (orderId: string, token: string) => call('POST', `/api/payments/test/${orderId}?token=${token}`, PAYING_CARD);

beforeAll(async () => {
  t = await ordersTestApp({ env: { RATE_LIMIT_SCALE: '10' } });
  admin = await t.buyer('admin');
});
afterAll(() => t.close());

describe('guest checkout', () => {
  it('places, pays and reveals an order with an e-mail and its signed link alone', async () => {
    const game = await t.gameWithStock(5, 3);
    const email = newGuest();
    const placed = await guestOrder(email.toUpperCase(), game);
    expect(placed.token).toEqual(expect.any(String));
    expect(placed.paymentUrl).toBe(`/pay/${placed.order._id}`);
    expect(placed.order).toMatchObject({ status: 'Awaiting payment', deliveryStatus: 'Pending' });

    // The link opens the order; nothing else does.
    const link = `?token=${placed.token}`;
    expect((await call('GET', `/api/orders/${placed.order._id}${link}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/orders/${placed.order._id}`)).json()).toEqual({ error: accountMessages.authRequired });
    expect((await call('GET', `/api/orders/${placed.order._id}?token=${placed.token!.slice(0, -2)}xx`)).statusCode).toBe(404);
    const other = await guestOrder(newGuest(), game);
    expect((await call('GET', `/api/orders/${placed.order._id}?token=${other.token}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/orders/${placed.order._id}`, undefined, admin.headers)).statusCode).toBe(404);
    expect((await payByLink(placed.order._id, other.token!)).statusCode).toBe(404);

    const paid = await payByLink(placed.order._id, placed.token!);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<TestPaymentAnswer>()).toMatchObject({ status: 'Paid', redirectUrl: `/orders/${placed.order._id}${link}` });
    await t.app.orders.allocator.drain();

    const order = (await call('GET', `/api/orders/${placed.order._id}${link}`)).json<Order>();
    expect(order).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    expect(order.keys).toHaveLength(1);
    expect(order.keys![0]).toMatchObject({ gameId: game, revealed: false, title: order.lines[0]!.title });
    expect(JSON.stringify(order)).not.toMatch(/"key"/);

    // The receipt goes to the guest's e-mail, lowercased, with the order's link and never the key.
    const [receipt] = await t.mailsTo(email);
    expect(receipt!.text).toContain(`${t.config.publicUrl}/orders/${placed.order._id}?token=`);
    expect(receipt!.text).toContain('Hi there,');
    expect(receipt!.text).toContain('on your order page');
    // The back office sends it again to the guest's own address, with the link.
    expect((await call('POST', `/api/admin/orders/${placed.order._id}/resend`, {}, admin.headers)).statusCode).toBe(200);
    const receipts = (await t.mailsTo(email)).filter((mail) => mail.text.includes(`/orders/${placed.order._id}?token=`));
    expect(receipts).toHaveLength(2);

    const one = await call('GET', `/api/orders/${placed.order._id}/keys${link}&keyId=${order.keys![0]!.purchaseId}`);
    expect(one.statusCode).toBe(200);
    expect(one.headers['cache-control']).toBe('no-store');
    const [key] = one.json<OrderKeys>().keys;
    expect(key).toMatchObject({ purchaseId: order.keys![0]!.purchaseId, gameId: game, title: order.lines[0]!.title, key: expect.any(String) });
    expect(receipt!.text).not.toContain(key!.key);
    expect(receipt!.html).not.toContain(key!.key);
    // Each reveal is recorded, as a library reveal is, and the page says so.
    const [reveals] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from key_reveals where key_id = ${key!.purchaseId} and user_id is null`);
    expect(reveals!.n).toBe(1);
    expect((await call('GET', `/api/orders/${placed.order._id}${link}`)).json<Order>().keys![0]!.revealed).toBe(true);
    expect((await call('GET', `/api/orders/${placed.order._id}/keys${link}&keyId=nosuchkey123`)).statusCode).toBe(404);
    expect((await call('GET', `/api/orders/${placed.order._id}/keys?token=${other.token}`)).statusCode).toBe(404);
  });

  it('answers 401 without a session and without an e-mail, and 400 for an e-mail that is not one', async () => {
    const game = await t.gameWithStock(5, 4);
    const none = await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }] });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: accountMessages.authRequired });
    const bad = await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('error');
    // A session's order ignores the e-mail, and has no link.
    const customer = await t.buyer();
    const signedIn = await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], email: newGuest() }, customer.headers);
    expect(signedIn.statusCode).toBe(201);
    expect(signedIn.json()).not.toHaveProperty('token');
    // A stale session is still a 401, never a guest's order.
    const stale = await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], email: newGuest() }, { authorization: 'Bearer nonsense' });
    expect(stale.statusCode).toBe(401);
  });

  it('keeps an Idempotency-Key per e-mail: the same key answers the same order, another e-mail places its own', async () => {
    const game = await t.gameWithStock(10, 5);
    const email = newGuest();
    const key = { 'idempotency-key': 'guest-attempt-1' };
    const first = await guestOrder(email, game, 1, key);
    const again = await guestOrder(email, game, 1, key);
    expect(again.order._id).toBe(first.order._id);
    expect(again.token).toEqual(expect.any(String));
    const someoneElse = await guestOrder(newGuest(), game, 1, key);
    expect(someoneElse.order._id).not.toBe(first.order._id);
    expect(await t.stockOf(game)).toBe(8);
  });

  it("caps a guest's orders by the owner's limits, asking to sign in beyond them, and the owner may change them", async () => {
    const dear = await t.gameWithStock(20, 6);
    const email = newGuest();
    const three = await call('POST', '/api/orders', { items: [{ gameId: dear, quantity: 3 }], email });
    expect(three.statusCode).toBe(409);
    expect(three.json<{ error: string }>().error).toMatch(/^As a guest you can buy at most 2 copies of ".+"\. Please sign in or create an account to buy more\.$/);
    const [price] = await queryRows<{ price_cents: number }>(t.database.db, sql`select price_cents from games where id = ${dear}`);
    // An order above €150: enough copies of as many games as it takes.
    const many = await queryRows<{ id: string }>(t.database.db, sql`select id from games where active and not hidden order by price_cents desc limit 10`);
    await t.database.db.execute(sql`update games set supplier_stock = 20, reserved = 0 where id in (${sql.join(many.map((game) => sql`${game.id}`), sql`, `)})`);
    await t.app.catalog.syncNow();
    const big = await call('POST', '/api/orders', { items: many.map((game) => ({ gameId: game.id, quantity: 2 })), email: newGuest() });
    expect(big.statusCode, big.body).toBe(409);
    expect(big.json()).toEqual({ error: orderMessages.guestOrderTooLarge(150) });
    expect(price!.price_cents).toBeGreaterThan(0);

    // Three orders an e-mail a day (cancelled ones do not count), then the fourth is refused.
    const cheap = await t.gameWithStock(30, 7);
    const limited = newGuest();
    const placed = [];
    for (let n = 0; n < 3; n += 1) placed.push(await guestOrder(limited, cheap));
    const cancelled = await call('POST', `/api/orders/${placed[0]!.order._id}/cancel?token=${placed[0]!.token}`);
    expect(cancelled.json<Order>().status).toBe('Cancelled');
    await guestOrder(limited, cheap);
    const fourth = await call('POST', '/api/orders', { items: [{ gameId: cheap, quantity: 1 }], email: limited });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toEqual({ error: orderMessages.guestTooManyOrders(3) });

    // The owner raises them; a bad value is a 400 with the rule's message.
    const settings = await call('PATCH', '/api/admin/settings', { guestOrdersPerDay: 5, guestMaxCopies: 3 }, admin.headers);
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject({ guestMaxOrder: 150, guestMaxCopies: 3, guestOrdersPerDay: 5 });
    expect((await call('PATCH', '/api/admin/settings', { guestMaxCopies: -1 }, admin.headers)).statusCode).toBe(400);
    // (Paid, so that the unpaid cap of 3 leaves room.)
    expect((await payByLink(placed[1]!.order._id, placed[1]!.token!)).statusCode).toBe(200);
    await guestOrder(limited, cheap, 3);
    expect((await call('GET', '/api/admin/settings', undefined, admin.headers)).json()).toMatchObject({ guestOrdersPerDay: 5 });
    await call('PATCH', '/api/admin/settings', { guestOrdersPerDay: 3, guestMaxCopies: 2 }, admin.headers);
  });

  it("joins a guest's orders to the account that verifies the e-mail: history, library and keys", async () => {
    const game = await t.gameWithStock(5, 8);
    const email = newGuest();
    const placed = await guestOrder(email, game);
    expect((await payByLink(placed.order._id, placed.token!)).statusCode).toBe(200);
    await t.app.orders.allocator.drain();

    const customer = { username: usernameWith(`Joiner_${guests}`, 4), email, password: 'Secret123', confirmPassword: 'Secret123' };
    expect((await call('POST', '/api/auth/register', customer)).statusCode).toBe(201);
    const mail = (await t.mailsTo(email)).find((message) => /^ {4}\d{6}$/m.test(message.text))!;
    const code = /^ {4}(\d{6})$/m.exec(mail.text)![1]!;
    expect((await call('POST', '/api/auth/verify-email', { email, code })).statusCode).toBe(200);
    const login = await call('POST', '/api/auth/login', { email, password: 'Secret123' });
    expect(login.statusCode, login.body).toBe(200);
    const headers = { authorization: `Bearer ${login.json<{ token: string }>().token}` };

    const history = (await call('GET', '/api/orders', undefined, headers)).json<Order[]>();
    expect(history.map((order) => order._id)).toEqual([placed.order._id]);
    const library = (await call('GET', '/api/purchases', undefined, headers)).json<Purchase[]>();
    expect(library.map((purchase) => purchase.orderId)).toEqual([placed.order._id]);
    // Its link still opens the order, and its owner needs none.
    expect((await call('GET', `/api/orders/${placed.order._id}?token=${placed.token}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/orders/${placed.order._id}`, undefined, headers)).statusCode).toBe(200);
  });

  it('reports a bad key with the order link and follows the claim there; the guest hears of it by mail', async () => {
    const game = await t.gameWithStock(5, 9);
    const email = newGuest();
    const placed = await guestOrder(email, game);
    expect((await payByLink(placed.order._id, placed.token!)).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    const link = `?token=${placed.token}`;
    const [key] = (await call('GET', `/api/orders/${placed.order._id}/keys${link}`)).json<OrderKeys>().keys;
    const report = { reason: 'invalid-key', message: 'The launcher says the key is not valid.' };
    // Only with the link of the key's own order.
    const other = await guestOrder(newGuest(), game);
    expect((await call('POST', `/api/purchases/${key!.purchaseId}/claim?token=${other.token}`, report)).statusCode).toBe(404);
    expect((await call('POST', `/api/purchases/${key!.purchaseId}/claim`, report)).statusCode).toBe(401);
    const claimed = await call('POST', `/api/purchases/${key!.purchaseId}/claim${link}`, report);
    expect(claimed.statusCode, claimed.body).toBe(201);
    const claims = (await call('GET', `/api/orders/${placed.order._id}/claims${link}`)).json<Array<{ _id: string; purchaseId?: string }>>();
    expect(claims).toHaveLength(1);
    expect((await call('GET', `/api/orders/${placed.order._id}/claims?token=${other.token}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/orders/${placed.order._id}/claims`)).statusCode).toBe(400);
    const mails = await t.mailsTo(email);
    expect(mails.some((mail) => mail.text.includes(`/orders/${placed.order._id}?token=`) && /problem reported/i.test(mail.subject))).toBe(true);
  });
});
