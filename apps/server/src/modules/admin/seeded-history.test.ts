// The seeded order history (`npm run seed:synthetic`) gives the dashboard months of figures to draw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrder, AdminStats } from '@keystore/contract';
import { seedOrderHistory } from '../orders/synthetic.ts';
import { seedSyntheticCustomers } from '../users/synthetic.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('seeded order history', () => {
  let t: OrdersTestApp;
  let admin: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  it('spreads paid, refunded and lapsed orders over the months, once however often it runs', async () => {
    await seedSyntheticCustomers(t.database.db);
    expect(await seedOrderHistory(t.database.db, 600)).toBe(600);
    expect(await seedOrderHistory(t.database.db, 600)).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 179 * 24 * 3600_000).toISOString().slice(0, 10);
    const stats = (await t.app.inject({ url: `/api/admin/stats?from=${from}&to=${today}`, headers: admin.headers })).json<AdminStats>();
    expect(stats.revenue.byDay).toHaveLength(180);
    expect(stats.revenue.byDay.filter((day) => day.orders > 0).length).toBeGreaterThan(100);
    expect(stats.ordersByStatus.Paid).toBeGreaterThan(400);
    expect(stats.ordersByStatus.Refunded).toBeGreaterThan(20);
    expect(stats.topGames).toHaveLength(10);
    expect(stats.customers.total).toBeGreaterThanOrEqual(200);
    const order = (await t.app.inject({ url: '/api/admin/orders/seedorder0000000001', headers: admin.headers })).json<AdminOrder>();
    expect(order.timeline.map((event) => event.to)).toEqual(['Awaiting payment', 'Paid', 'Delivered']);
  });
});
