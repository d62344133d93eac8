import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationMessages, type Notification } from '@keystore/contract';
import { users } from '../users/schema.ts';
import { notifications } from './schema.ts';
import { newId } from '../../platform/ids.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

let t: OrdersTestApp;
beforeAll(async () => {
  t = await ordersTestApp();
}, 120_000);
afterAll(() => t?.close());

const list = async (who: Buyer): Promise<Notification[]> => {
  await t.app.notifications.drain();
  const answer = await t.app.inject({ url: '/api/notifications', headers: who.headers });
  expect(answer.statusCode).toBe(200);
  return answer.json<Notification[]>();
};
const publishAsAdmin = (admin: Buyer, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/admin/notifications', headers: admin.headers, payload });

describe('admin notifications', () => {
  it('lets only admins publish: 401 without a token, 403 for a customer, 201 for an admin', async () => {
    const [customer, admin] = [await t.buyer(), await t.buyer('admin')];
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/notifications', payload: { title: 'a', text: 'b' } })).statusCode).toBe(401);
    expect((await publishAsAdmin(customer, { title: 'a', text: 'b' })).statusCode).toBe(403);
    const created = await publishAsAdmin(admin, { title: '  Maintenance tonight ', text: 'The store is down 02:00-03:00 UK time.' });
    expect(created.statusCode).toBe(201);
    const notification = created.json<Notification>();
    expect(notification).toMatchObject({ title: 'Maintenance tonight', isPublic: true, isRead: false, link: null });
    expect(new Date(notification.generatedAt).getTime()).toBe(notification.rawTimestamp);
    expect((await list(customer)).map((n) => n._id)).toContain(notification._id);
  });

  it('validates the title and text with the contract messages', async () => {
    const admin = await t.buyer('admin');
    expect((await publishAsAdmin(admin, { text: 'x' })).json()).toEqual({ error: notificationMessages.titleRequired });
    expect((await publishAsAdmin(admin, { title: '   ', text: 'x' })).json()).toEqual({ error: notificationMessages.titleRequired });
    expect((await publishAsAdmin(admin, { title: 'x' })).json()).toEqual({ error: notificationMessages.textRequired });
    const tooLong = await publishAsAdmin(admin, { title: 'x'.repeat(121), text: 'x' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual({ error: notificationMessages.titleTooLong });
    expect((await publishAsAdmin(admin, { title: 'x', text: 'x'.repeat(1001) })).json()).toEqual({ error: notificationMessages.textTooLong });
  });
});

describe('lists and read state', () => {
  it('gives visitors the public ones only, unread, newest first', async () => {
    const [admin, buyer] = [await t.buyer('admin'), await t.buyer()];
    await t.app.notifications.publish({ title: 'Personal', text: 'only for one buyer', kind: 'admin', userId: buyer.userId });
    const first = (await publishAsAdmin(admin, { title: 'First', text: 'one' })).json<Notification>();
    const second = (await publishAsAdmin(admin, { title: 'Second', text: 'two' })).json<Notification>();
    const answer = await t.app.inject({ url: '/api/notifications/public' });
    expect(answer.statusCode).toBe(200);
    const listed = answer.json<Notification[]>();
    expect(listed.every((n) => n.isPublic && !n.isRead)).toBe(true);
    expect(listed.map((n) => n.title)).not.toContain('Personal');
    expect(listed.findIndex((n) => n._id === second._id)).toBeLessThan(listed.findIndex((n) => n._id === first._id));
  });

  it('needs a token for the personal list and for marking read', async () => {
    expect((await t.app.inject({ url: '/api/notifications' })).statusCode).toBe(401);
    // An id of the shape ids have: a path that names nothing is a 404 before any token is looked at.
    expect((await t.app.inject({ method: 'POST', url: '/api/notifications/mark-read/abcdefgh12345678' })).statusCode).toBe(401);
  });

  it('shows personal notifications from the account creation on, and every public one', async () => {
    const buyer = await t.buyer();
    const other = await t.buyer();
    const [account] = await t.database.db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, buyer.userId));
    const before = new Date(account!.createdAt.getTime() - 60_000);
    await t.database.db.insert(notifications).values([
      { id: newId(), userId: buyer.userId, title: 'Too old', text: 'before the account', kind: 'admin', createdAt: before },
      { id: newId(), userId: null, title: 'Old public', text: 'before the account', kind: 'admin', createdAt: before },
    ]);
    await t.app.notifications.publish({ title: 'Mine', text: 'after the account', kind: 'admin', userId: buyer.userId });
    await t.app.notifications.publish({ title: 'Theirs', text: 'another buyer', kind: 'admin', userId: other.userId });
    const titles = (await list(buyer)).map((n) => n.title);
    expect(titles).toContain('Mine');
    expect(titles).toContain('Old public');
    expect(titles).not.toContain('Too old');
    expect(titles).not.toContain('Theirs');
    const mine = (await list(buyer)).find((n) => n.title === 'Mine')!;
    expect(mine).toMatchObject({ isPublic: false, isRead: false });
  });

  it('marks read idempotently, per user, and answers 404 for what the user cannot see', async () => {
    const [admin, reader, other] = [await t.buyer('admin'), await t.buyer(), await t.buyer()];
    const shared = (await publishAsAdmin(admin, { title: 'Read me', text: 'once' })).json<Notification>();
    const theirs = await t.app.notifications.publish({ title: 'Private', text: 'not yours', kind: 'admin', userId: other.userId });
    const mark = (who: Buyer, id: string) => t.app.inject({ method: 'POST', url: `/api/notifications/mark-read/${id}`, headers: who.headers });
    expect((await mark(reader, shared._id)).statusCode).toBe(204);
    expect((await mark(reader, shared._id)).statusCode).toBe(204);
    expect((await list(reader)).find((n) => n._id === shared._id)?.isRead).toBe(true);
    expect((await list(other)).find((n) => n._id === shared._id)?.isRead).toBe(false);
    const hidden = await mark(reader, theirs._id);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: notificationMessages.notFound });
    expect((await mark(reader, 'no-such-id')).statusCode).toBe(404);
  });

  it('lists at most 50', async () => {
    const admin = await t.buyer('admin');
    for (let i = 0; i < 51; i += 1) await t.app.notifications.publish({ title: `Bulk ${i}`, text: 'x', kind: 'admin' });
    expect((await list(admin)).length).toBe(50);
  });
});

describe('notifications made by events', () => {
  it('tells the buyer their order is paid and their keys are delivered', async () => {
    const buyer = await t.buyer();
    const order = await t.order(buyer, await t.gameWithStock(5, 3));
    expect((await t.pay(buyer, order.order._id)).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    const mine = (await list(buyer)).filter((n) => !n.isPublic);
    const paid = mine.find((n) => n.title === 'Order paid');
    expect(paid?.text).toContain(`€${order.order.amount.toFixed(2)}`);
    expect(mine.find((n) => n.title === 'Keys delivered')?.text).toBe('Your key is ready to reveal in your library.');
    expect(paid?.link).toBe('/library');
  });

  it('tells the buyer a payment was declined', async () => {
    const buyer = await t.buyer();
    const order = await t.order(buyer, await t.gameWithStock(5, 4));
    await t.pay(buyer, order.order._id, { cardNumber: '4000 0000 0000 0002' });
    const mine = (await list(buyer)).filter((n) => !n.isPublic);
    expect(mine.map((n) => n.title)).toEqual(['Payment declined']);
    expect(mine[0]!.text).toBe('Your payment was declined: Your card was declined. Nothing was charged; you can place the order again.');
  });

  it('tells the user their password changed, and about a login from a new device', async () => {
    const buyer = await t.buyer();
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/users/password',
      headers: buyer.headers,
      payload: { currentPassword: 'Secret123', newPassword: 'Changed123' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await list(buyer)).filter((n) => !n.isPublic).map((n) => n.title)).toEqual(['Password changed']);

    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: buyer.email, password: 'Changed123' }, remoteAddress: '203.0.113.9' });
    expect(login.json()).toMatchObject({ twoFactorRequired: true });
    const mine = (await list(buyer)).filter((n) => !n.isPublic);
    expect(mine[0]).toMatchObject({ title: 'Login from a new device' });
    expect(mine[0]!.text).toContain('203.0.113.9');
  });

  it('makes a public notification linking to each published news item', async () => {
    const buyer = await t.buyer();
    const news = await t.app.notifications.newsPublished({ id: 'news123', title: 'Summer sale starts', content: 'Up to 80% off.' });
    expect(news).toMatchObject({ title: 'News', text: 'Summer sale starts', link: '/news/news123', isPublic: true });
    expect((await list(buyer)).map((n) => n._id)).toContain(news._id);
  });
});
