// Gifts (issue 29): an order bought for someone else. The recipient gets a mail with the message and
// the gift's link, reveals the key there, and finds it in the library of the account that proves its
// e-mail; the buyer's library shows the gift as sent, never its key. Through the real app.
import { usernameWith } from '../../test/accounts.ts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftMessages, orderMessages, type CreateOrderAnswer, type Gift, type OrderKeys, type Purchase } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { ordersTestApp, PAYING_CARD, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

let t: OrdersTestApp;
let n = 0;
const newEmail = (who: string) => `${who}.${process.pid.toString(36)}${(n += 1)}${Math.random().toString(36).slice(2, 6)}@gmail.com`;

const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** The link in the newest gift mail to `email`: the gift's id and token. */
async function giftLink(email: string): Promise<{ id: string; token: string; text: string }> {
  const mail = (await t.mailsTo(email)).find((message) => message.text.includes('/gifts/'))!;
  const [, id, token] = /\/gifts\/([^?\s]+)\?token=(\S+)/.exec(mail.text)!;
  return { id: id!, token: token!, text: mail.text };
}

beforeAll(async () => {
  t = await ordersTestApp({ env: { RATE_LIMIT_SCALE: '10' } });
});
afterAll(() => t.close());

describe('gifts', () => {
  let buyer: Buyer;
  beforeAll(async () => {
    buyer = await t.buyer();
  });

  it("mails the recipient the message and the gift's link; they reveal the key, and the buyer's library shows it sent, never the key", async () => {
    const game = await t.gameWithStock(5, 12);
    const to = newEmail('friend');
    const placed = await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], gift: { email: to.toUpperCase(), name: 'Grace', message: 'Happy birthday! Play it tonight.' } }, buyer.headers);
    expect(placed.statusCode, placed.body).toBe(201);
    const { order } = placed.json<CreateOrderAnswer>();
    const paid = await t.pay(buyer, order._id);
    expect(paid.statusCode).toBe(200);
    expect(paid.json<{ message: string }>().message).toBe(orderMessages.giftPaymentSucceeded);
    await t.app.orders.allocator.drain();

    const link = await giftLink(to);
    expect(link.text).toContain('Hi Grace,');
    // The buyer's receipt says where the keys went, and offers none to reveal.
    const receipt = (await t.mailsTo(buyer.email)).find((mail) => mail.subject.includes(order._id.slice(0, 8).toUpperCase()))!;
    expect(receipt.subject).toMatch(/your gift is on its way$/);
    expect(receipt.text).toContain(`we have e-mailed Grace <${to}> your message`);
    expect(receipt.text).not.toContain('Reveal your keys');
    const bell = (await call('GET', '/api/notifications', undefined, buyer.headers)).json<Array<{ title: string }>>();
    expect(bell.map((item) => item.title)).toContain('Gift delivered');
    expect(bell.map((item) => item.title)).not.toContain('Keys delivered');
    expect(link.text).toContain('Happy birthday! Play it tonight.');
    expect(link.text).toContain(`${t.config.publicUrl}/gifts/`);
    // The recipient's page: the game and the message, never the order or its price.
    const page = await call('GET', `/api/gifts/${link.id}?token=${link.token}`);
    expect(page.statusCode, page.body).toBe(200);
    const gift = page.json<Gift>();
    expect(gift).toMatchObject({ name: 'Grace', message: 'Happy birthday! Play it tonight.', from: expect.stringMatching(/^Buyer_/), revealedAt: null });
    expect(gift.games).toEqual([expect.objectContaining({ gameId: game, quantity: 1 })]);
    expect(page.body).not.toContain(order._id);
    expect(page.body).not.toMatch(/price|amount/i);

    // The buyer sees it sent, and cannot reveal it, with its session or with the order's keys call.
    const library = (await call('GET', '/api/purchases', undefined, buyer.headers)).json<Purchase[]>();
    const sent = library.find((purchase) => purchase.orderId === order._id)!;
    expect(sent.gift).toEqual({ to: `Grace <${to}>`, revealedAt: null });
    expect((await call('GET', `/api/purchases/${sent._id}/key`, undefined, buyer.headers)).statusCode).toBe(404);
    const ownKeys = await call('GET', `/api/orders/${order._id}/keys`, undefined, buyer.headers);
    expect(ownKeys.statusCode).toBe(403);
    expect(ownKeys.json()).toEqual({ error: giftMessages.giftOfOwnKey });

    // The recipient reveals it by the gift's link; a forged link opens nothing.
    expect((await call('GET', `/api/gifts/${link.id}/keys?token=${link.token.slice(0, -3)}abc`)).statusCode).toBe(404);
    const revealed = await call('GET', `/api/gifts/${link.id}/keys?token=${link.token}&keyId=${gift.keys[0]!.purchaseId}`);
    expect(revealed.statusCode).toBe(200);
    const [key] = revealed.json<OrderKeys>().keys;
    expect(key!.key).toEqual(expect.any(String));
    expect(link.text).not.toContain(key!.key);
    const after = (await call('GET', '/api/purchases', undefined, buyer.headers)).json<Purchase[]>().find((purchase) => purchase.orderId === order._id)!;
    expect(after.gift!.revealedAt).toEqual(expect.any(String));
    expect(JSON.stringify(after)).not.toContain(key!.key);
  });

  it('puts the key in the library of the account that has, or later proves, the e-mail', async () => {
    const game = await t.gameWithStock(5, 13);
    // Has an account already: the key is its at delivery.
    const friend = await t.buyer();
    const first = (await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], gift: { email: friend.email, name: 'Friend', message: '' } }, buyer.headers)).json<CreateOrderAnswer>();
    expect((await t.pay(buyer, first.order._id)).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    const theirs = (await call('GET', '/api/purchases', undefined, friend.headers)).json<Purchase[]>();
    expect(theirs.map((purchase) => purchase.orderId)).toEqual([first.order._id]);
    expect(theirs[0]!.gift).toBeUndefined();
    expect((await call('GET', `/api/purchases/${theirs[0]!._id}/key`, undefined, friend.headers)).statusCode).toBe(200);

    // A guest's gift to someone with no account yet: the key joins the account made later, not the guest's.
    const to = newEmail('later');
    const guestEmail = newEmail('giver');
    const placed = await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], email: guestEmail, gift: { email: to, name: 'Later', message: 'For you' } });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order, token } = placed.json<CreateOrderAnswer>();
    expect((await call('POST', `/api/payments/test/${order._id}?token=${token}`, PAYING_CARD)).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    const [held] = await queryRows<{ user_id: string | null }>(t.database.db, sql`select user_id from product_keys where order_id = ${order._id}`);
    expect(held!.user_id).toBeNull();
    // The guest giver signs up: the order joins it, the key does not.
    const giver = await signUp(guestEmail);
    expect((await call('GET', '/api/orders', undefined, giver)).json<Array<{ _id: string }>>().map((o) => o._id)).toContain(order._id);
    expect((await call('GET', '/api/purchases', undefined, giver)).json<Purchase[]>().filter((purchase) => !purchase.gift)).toEqual([]);
    // The recipient signs up: the key is theirs.
    const recipient = await signUp(to);
    const received = (await call('GET', '/api/purchases', undefined, recipient)).json<Purchase[]>();
    expect(received.map((purchase) => purchase.orderId)).toEqual([order._id]);
  });

  it("lets the recipient report a bad key with the gift's link, and follow it there; the buyer's order link cannot", async () => {
    const game = await t.gameWithStock(5, 15);
    const to = newEmail('claimer');
    const giverEmail = newEmail('giver');
    const placed = (await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], email: giverEmail, gift: { email: to, name: 'Claire', message: '' } })).json<CreateOrderAnswer>();
    expect((await call('POST', `/api/payments/test/${placed.order._id}?token=${placed.token}`, PAYING_CARD)).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    const link = await giftLink(to);
    const gift = (await call('GET', `/api/gifts/${link.id}?token=${link.token}`)).json<Gift>();
    const keyId = gift.keys[0]!.purchaseId;
    await call('GET', `/api/gifts/${link.id}/keys?token=${link.token}&keyId=${keyId}`);
    const report = { reason: 'already-redeemed', message: 'Steam says it was used.' };
    expect((await call('POST', `/api/purchases/${keyId}/claim?token=${placed.token}`, report)).statusCode).toBe(404);
    const claimed = await call('POST', `/api/purchases/${keyId}/claim?token=${link.token}`, report);
    expect(claimed.statusCode, claimed.body).toBe(201);
    expect((await call('GET', `/api/gifts/${link.id}/claims?token=${link.token}`)).json<unknown[]>()).toHaveLength(1);
    expect((await call('GET', `/api/gifts/${link.id}/claims?token=${placed.token}`)).statusCode).toBe(404);
    // The recipient hears of it, with the gift's page; the giver does not.
    const told = (await t.mailsTo(to)).find((mail) => /problem reported/i.test(mail.subject));
    expect(told!.text).toContain('Hi Claire,');
    expect(told!.text).toContain(`/gifts/${link.id}?token=`);
    expect((await t.mailsTo(giverEmail)).some((mail) => /problem reported/i.test(mail.subject))).toBe(false);
  });

  it('refuses a gift without a name, or with a message over 300 characters', async () => {
    const game = await t.gameWithStock(5, 14);
    const noName = await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], gift: { email: newEmail('x'), name: '  ', message: '' } }, buyer.headers);
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toEqual({ error: giftMessages.nameRequired });
    const long = await call('POST', '/api/orders', { items: [{ gameId: game, quantity: 1 }], gift: { email: newEmail('x'), name: 'Ada', message: 'x'.repeat(301) } }, buyer.headers);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ error: giftMessages.messageTooLong });
  });
});

/** Signs an e-mail up through the real flow (register, the mailed code), then in: answers the session's headers. */
async function signUp(email: string): Promise<Record<string, string>> {
  const username = usernameWith(`Member_${(n += 1)}`, 4);
  expect((await call('POST', '/api/auth/register', { username, email, password: 'Secret123' })).statusCode).toBe(201);
  const mail = (await t.mailsTo(email)).find((message) => /^ {4}\d{6}$/m.test(message.text))!;
  const code = /^ {4}(\d{6})$/m.exec(mail.text)![1]!;
  expect((await call('POST', '/api/auth/verify-email', { email, code })).statusCode).toBe(200);
  const login = await call('POST', '/api/auth/login', { email, password: 'Secret123' });
  expect(login.statusCode, login.body).toBe(200);
  return { authorization: `Bearer ${login.json<{ token: string }>().token}` };
}
