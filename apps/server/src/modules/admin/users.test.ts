// The back office's customers: the table, one account with its sign-ins, the role rules, and blocking
// (every session ends at once, on every instance of the store, and every sign-in is refused).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, type AdminUser, type AdminUserList, type AuditList } from '@keystore/contract';
import { SessionService } from '../auth/sessions.ts';
import { openEventStream } from '../notifications/test-kit.ts';
import { BUYER_PASSWORD, ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('back office: customers', () => {
  // Two instances of one store on one database, as behind a load balancer.
  let t: OrdersTestApp;
  let other: OrdersTestApp;
  let admin: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    other = await ordersTestApp({ database: t.database, sync: false });
    admin = await t.buyer('admin');
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const get = <T>(url: string, who: Buyer = admin) => t.app.inject({ url, headers: who.headers }).then((answer) => ({ status: answer.statusCode, body: answer.json<T>() }));
  const patch = (id: string, payload: object, who: Buyer = admin) => t.app.inject({ method: 'PATCH', url: `/api/admin/users/${id}`, headers: who.headers, payload });

  it('finds customers by e-mail or username, with their orders and spend', async () => {
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, await t.gameWithStock(10, 1));
    await t.pay(buyer, order._id);
    const found = await get<AdminUserList>(`/api/admin/users?q=${encodeURIComponent(buyer.email.slice(0, 12).toUpperCase())}`);
    expect(found.status).toBe(200);
    expect(found.body.items).toMatchObject([{ _id: buyer.userId, email: buyer.email, role: 'customer', blocked: false, orders: 1, totalSpent: order.amount }]);
    expect(found.body.total).toBe(1);
    expect((await get<AdminUserList>('/api/admin/users?q=nobody-is-called-this')).body).toEqual({ items: [], total: 0, page: 1, pageSize: 25 });
  });

  it('shows one account with its orders, tier and sign-ins, the device told in words', async () => {
    const buyer = await t.buyer();
    await new SessionService(t.database, t.config.secrets.jwt).open(buyer.userId, { ip: '203.0.113.9', userAgent: FIREFOX });
    const detail = await get<AdminUser>(`/api/admin/users/${buyer.userId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ _id: buyer.userId, emailVerified: true, membership: 'Key Newb', purchaseHistory: [], blocked: false });
    expect(detail.body.signIns.find((signIn) => signIn.ip === '203.0.113.9')).toMatchObject({ device: 'Firefox 128 on Windows 10', active: true });
    expect(detail.body.signIns).toHaveLength(2);
    expect((await get('/api/admin/users/no-such-user')).status).toBe(404);
  });

  it('blocks an account: its sessions end on every instance at once, and sign-in is refused with a clear message', async () => {
    const buyer = await t.buyer();
    expect((await other.app.inject({ url: '/api/users/profile', headers: buyer.headers })).statusCode).toBe(200);

    const blocked = await patch(buyer.userId, { blocked: true });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json<AdminUser>()).toMatchObject({ blocked: true, signIns: [{ active: false }] });

    // The other instance refuses the token at once: no cache stands between it and the database.
    for (const instance of [t, other]) {
      const answer = await instance.app.inject({ url: '/api/users/profile', headers: buyer.headers });
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ error: adminMessages.accountBlocked });
      const login = await instance.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: buyer.email, password: BUYER_PASSWORD } });
      expect(login.statusCode).toBe(403);
      expect(login.json()).toEqual({ error: adminMessages.accountBlocked });
    }
    // A wrong password is told as wrong, whether or not the account is blocked.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: buyer.email, password: 'Wrong1234' } })).statusCode).toBe(401);
    // Even a session opened in a race with the block is refused.
    const late = await new SessionService(t.database, t.config.secrets.jwt).open(buyer.userId, { ip: '127.0.0.1', userAgent: undefined });
    expect((await other.app.inject({ url: '/api/orders', headers: { authorization: `Bearer ${late}` } })).statusCode).toBe(403);

    const unblocked = await patch(buyer.userId, { blocked: false });
    expect(unblocked.json<AdminUser>().blocked).toBe(false);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: buyer.email, password: BUYER_PASSWORD } });
    expect(login.statusCode).toBe(200);

    const audit = (await get<AuditList>('/api/admin/audit')).body.items.filter((entry) => entry.target.id === buyer.userId);
    expect(audit).toMatchObject([
      { action: 'user.unblock', actor: { id: admin.userId, email: admin.email }, before: { blocked: true }, after: { blocked: false } },
      { action: 'user.block', before: { blocked: false }, after: { blocked: true } },
    ]);
  });

  it('ends the blocked account’s open notification streams at once', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const buyer = await t.buyer();
    const stream = await openEventStream(`${base}/api/notifications/stream`, buyer.headers);
    expect(stream.status).toBe(200);
    expect((await patch(buyer.userId, { blocked: true })).statusCode).toBe(200);
    for (let waited = 0; !stream.ended && waited < 3000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stream.ended).toBe(true);
    stream.close();
  });

  it('changes roles, but an admin cannot block themself and the last admin keeps the role', async () => {
    const own = await patch(admin.userId, { blocked: true });
    expect(own.statusCode).toBe(409);
    expect(own.json()).toEqual({ error: adminMessages.ownBlock });

    const last = await patch(admin.userId, { role: 'customer' });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toEqual({ error: adminMessages.lastAdmin });

    const helper = await t.buyer();
    expect((await patch(helper.userId, { role: 'admin' })).json<AdminUser>().role).toBe('admin');
    expect((await get<AdminUserList>('/api/admin/users', helper)).status).toBe(200);
    // Now there is another admin: giving up the role is allowed, and it takes effect at once.
    expect((await patch(admin.userId, { role: 'customer' }, helper)).json<AdminUser>().role).toBe('customer');
    expect((await get('/api/admin/users', admin)).status).toBe(403);
    expect((await patch(admin.userId, { role: 'admin' }, helper)).statusCode).toBe(200);

    const audit = (await get<AuditList>('/api/admin/audit')).body.items.filter((entry) => entry.action === 'user.role');
    expect(audit.map((entry) => [entry.target.id, entry.before, entry.after])).toEqual([
      [admin.userId, { role: 'customer' }, { role: 'admin' }],
      [admin.userId, { role: 'admin' }, { role: 'customer' }],
      [helper.userId, { role: 'customer' }, { role: 'admin' }],
    ]);
  });
});
