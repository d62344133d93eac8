// The audit log: every admin action, newest first, paged, and append-only even for the app itself.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditList } from '@keystore/contract';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('back office: audit log', () => {
  let t: OrdersTestApp;
  let admin: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp({ sync: false });
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  const publish = (title: string) =>
    t.app.inject({ method: 'POST', url: '/api/admin/notifications', headers: admin.headers, payload: { title, text: 'Summer sale' } });

  it('records the admin routes of other modules too, newest first, page by page', async () => {
    for (const title of ['First', 'Second', 'Third']) expect((await publish(title)).statusCode).toBe(201);
    const page = (await t.app.inject({ url: '/api/admin/audit?page=1&pageSize=2', headers: admin.headers })).json<AuditList>();
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page.items.map((entry) => [entry.action, (entry.after as { title: string }).title])).toEqual([
      ['notification.publish', 'Third'],
      ['notification.publish', 'Second'],
    ]);
    expect(page.items[0]).toMatchObject({ actor: { id: admin.userId, email: admin.email }, target: { type: 'notification' }, before: null, reason: null });
    const next = (await t.app.inject({ url: '/api/admin/audit?page=2&pageSize=2', headers: admin.headers })).json<AuditList>();
    expect(next.items.map((entry) => (entry.after as { title: string }).title)).toEqual(['First']);
  });

  it('cannot be changed or emptied, not even by the app', async () => {
    await expect(t.database.db.execute(sql`update audit_log set reason = 'edited'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    expect((await t.app.inject({ url: '/api/admin/audit', headers: admin.headers })).json<AuditList>().total).toBe(3);
  });
});
