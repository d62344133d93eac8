// The dashboard, counted against orders made in the test on a fresh database.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, type AdminStats } from '@keystore/contract';
import { supportMessages } from '../support/schema.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { periodOf } from './stats.ts';

const DAY_MS = 24 * 3600_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

describe('back office: dashboard', () => {
  let t: OrdersTestApp;
  let admin: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  const stats = async (query = '') => {
    const answer = await t.app.inject({ url: `/api/admin/stats${query}`, headers: admin.headers });
    return { status: answer.statusCode, body: answer.json<AdminStats>() };
  };

  it('counts revenue, statuses, top games, customers, refunds and what waits now', async () => {
    const [ann, bob, cy] = await t.buyers(3);
    const gameA = await t.gameWithStock(20, 1);
    const gameB = await t.gameWithStock(20, 2);
    const paid1 = (await t.order(ann!, gameA, 2)).order;
    await t.pay(ann!, paid1._id);
    const paid2 = (await t.order(bob!, gameB, 1)).order;
    await t.pay(bob!, paid2._id);
    const refunded = (await t.order(cy!, gameB, 2)).order;
    await t.pay(cy!, refunded._id);
    await t.app.inject({ method: 'POST', url: `/api/admin/orders/${refunded._id}/refund`, headers: admin.headers });
    await t.order(cy!, gameA, 1);
    const declined = (await t.order(bob!, gameA, 1)).order;
    await t.pay(bob!, declined._id, { cardNumber: '4000 0000 0000 0002' });
    // An old paid order, outside the default period, paid 40 days ago.
    const old = (await t.order(ann!, gameB, 1)).order;
    await t.pay(ann!, old._id);
    await t.database.db.execute(sql`update orders set created_at = now() - interval '40 days', paid_at = now() - interval '40 days' where id = ${old._id}`);
    // One paid order still waiting for its keys, and one support message unanswered.
    await t.database.db.execute(sql`update orders set delivery_status = 'Pending' where id = ${paid2._id}`);
    await t.database.db.insert(supportMessages).values({ id: 'support-1', email: 'x@example.com', name: 'X', title: 'Where is my key', message: 'Hello', ip: '127.0.0.1' });

    const { status, body } = await stats();
    expect(status).toBe(200);
    const today = dayOf(Date.now());
    expect(body.from).toBe(dayOf(Date.now() - 29 * DAY_MS));
    expect(body.to).toBe(today);
    const revenue = paid1.amount + paid2.amount;
    expect(body.revenue).toMatchObject({ total: revenue, currency: 'EUR' });
    expect(body.revenue.byDay).toHaveLength(30);
    expect(body.revenue.byDay.at(-1)).toEqual({ date: today, amount: revenue, orders: 2 });
    expect(body.revenue.byDay.slice(0, -1).every((day) => day.amount === 0 && day.orders === 0)).toBe(true);
    expect(body.ordersByStatus).toEqual({ 'Awaiting payment': 1, 'In review': 0, Paid: 2, Declined: 1, Expired: 0, Cancelled: 0, Refunded: 1, Disputed: 0 });
    expect(body.topGames).toEqual([
      { gameId: gameA, title: paid1.lines[0]!.title, units: 2, revenue: paid1.amount },
      { gameId: gameB, title: paid2.lines[0]!.title, units: 1, revenue: paid2.amount },
    ]);
    expect(body.customers).toEqual({ total: 3, new: 3 });
    expect(body.refunds).toEqual({ count: 1, amount: refunded.amount });
    expect(body.undelivered).toBe(1);
    expect(body.openSupport).toBe(1);
    expect(body.today).toBe(revenue);

    // A period of the old order's day alone: its revenue, and nothing of today's.
    const oldDay = dayOf(Date.now() - 40 * DAY_MS);
    const past = (await stats(`?from=${oldDay}&to=${oldDay}`)).body;
    expect(past.revenue).toMatchObject({ total: old.amount, byDay: [{ date: oldDay, amount: old.amount, orders: 1 }] });
    expect(past.ordersByStatus.Paid).toBe(1);
    expect(past.today).toBe(revenue);
  });

  it('refuses a period that ends before it starts, is too long, or is not a date', async () => {
    for (const query of ['?from=2026-02-01&to=2026-01-01', '?from=2020-01-01&to=2026-01-01', '?from=2026-02-30']) {
      const answer = await t.app.inject({ url: `/api/admin/stats${query}`, headers: admin.headers });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ error: query === '?from=2026-02-30' ? adminMessages.dateInvalid : adminMessages.periodInvalid });
    }
    expect(periodOf({}, Date.parse('2026-03-10T23:59:00Z'))).toEqual({ from: '2026-02-09', to: '2026-03-10' });
  });
});
