// Operator alerts: each cause mails the admins through the outbox, at most once an hour, with a link.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../platform/schema.ts';
import { syncRuns } from '../catalog/schema.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('back office: operator alerts', () => {
  let t: OrdersTestApp;
  let admin: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp({ env: { PUBLIC_URL: 'https://shop.example' } });
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  const alertsTo = (email: string) => t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(sql`${mailOutbox.id} desc`);
  const hourPasses = () => t.database.db.execute(sql`update operator_alerts set last_sent_at = last_sent_at - interval '61 minutes'`);

  it('stays quiet when all is well', async () => {
    expect(await t.app.alerts.check()).toEqual([]);
  });

  it('mails about a paid order still undelivered after 10 minutes, once an hour, with a link to it', async () => {
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, await t.gameWithStock(10, 1));
    await t.pay(buyer, order._id);
    await t.database.db.execute(sql`update orders set delivery_status = 'Pending', paid_at = now() - interval '9 minutes' where id = ${order._id}`);
    expect(await t.app.alerts.check()).toEqual([]);
    await t.database.db.execute(sql`update orders set paid_at = now() - interval '11 minutes' where id = ${order._id}`);
    expect(await t.app.alerts.check()).toEqual(['undelivered']);
    const [mail] = await alertsTo(admin.email);
    expect(mail!.subject).toContain('1 paid order is still without keys');
    expect(mail!.text).toContain(`https://shop.example/admin/orders/${order._id}`);

    expect(await t.app.alerts.check()).toEqual([]);
    await hourPasses();
    expect(await t.app.alerts.check()).toEqual(['undelivered']);
    expect(await alertsTo(admin.email)).toHaveLength(2);
    await t.database.db.execute(sql`update orders set delivery_status = 'Delivered' where id = ${order._id}`);
  });

  it('mails when two supplier syncs in a row failed', async () => {
    const failed = { supplier: 'demo', full: false, startedAt: new Date(), finishedAt: new Date(), error: 'supplier down' };
    await t.database.db.insert(syncRuns).values(failed);
    expect(await t.app.alerts.check()).toEqual([]);
    await t.database.db.insert(syncRuns).values(failed);
    expect(await t.app.alerts.check()).toEqual(['sync-failed']);
    expect((await alertsTo(admin.email))[0]!.text).toContain('https://shop.example/admin/catalogue');
  });

  it('mails when a game that sold this week runs out of stock', async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(1, 2);
    const { order } = await t.order(buyer, gameId);
    await t.pay(buyer, order._id);
    await t.app.orders.allocator.drain();
    expect(await t.stockOf(gameId)).toBe(0);
    expect(await t.app.alerts.check()).toEqual(['out-of-stock']);
    expect((await alertsTo(admin.email))[0]!.text).toContain(order.lines[0]!.title);
  });
});
