// Orders held for review over two instances on one PostgreSQL (issue 29): a payment held on one
// instance is in the other's queue; the owner's approve sent to one and cancel sent to the other at the
// same moment are decided once (one 200, one 409), and the keys go out once or not at all.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { riskMessages, RISK_TEST_CARDS, type GameListAnswer, type Order, type RiskQueueEntry, type TestPaymentAnswer } from '@keystore/contract';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { CATALOG_CHANNEL } from '../modules/catalog/sync.ts';
import { customerOver, eventually, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

const CARD = { cardNumber: RISK_TEST_CARDS.elevatedRisk, expiry: '12/39', cvc: '123', name: 'Risky Player' };

describe.skipIf(!SHARED_POSTGRES)('orders in review over two instances on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  let a: Instance;
  let b: Instance;
  let admin: { headers: Record<string, string> };

  beforeAll(async () => {
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'reviews');
    a = await startInstance({ databaseUrl: scratch.url, env: { RATE_LIMIT_SCALE: '100' } });
    b = await startInstance({ databaseUrl: scratch.url, env: { RATE_LIMIT_SCALE: '100' } });
    database = await openDatabase({ url: scratch.url });
    await eventually(async () => ((await (await fetch(`${b.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
    const owner = await customerOver(a.base, b.base);
    await database.db.execute(sql`update users set role = 'admin' where email = ${owner.email}`);
    admin = owner;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await scratch?.drop();
  });

  async function heldOrder(offset: number): Promise<{ order: Order; token: string; gameId: string }> {
    const [game] = await queryRows<{ id: string }>(database.db, sql`select id from games where active and price_cents < 5000 order by popularity desc, id offset ${offset} limit 1`);
    await database.db.execute(sql`update games set supplier_stock = 10, reserved = 0 where id = ${game!.id}`);
    await database.notify(CATALOG_CHANNEL, 'test');
    const email = `held.${Math.random().toString(36).slice(2, 8)}@gmail.com`;
    const placed = await fetch(`${a.base}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ gameId: game!.id, quantity: 1 }], email }) });
    expect(placed.status).toBe(201);
    const { order, token } = (await placed.json()) as { order: Order; token: string };
    const paid = await fetch(`${a.base}/api/payments/test/${order._id}?token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CARD) });
    expect(((await paid.json()) as TestPaymentAnswer).status).toBe('In review');
    return { order, token, gameId: game!.id };
  }

  it("shows an order held on one instance in the other's queue, and decides it once when both are asked at once", async () => {
    for (const offset of [0, 1, 2]) {
      const { order, token } = await heldOrder(offset);
      const queue = (await (await fetch(`${b.base}/api/admin/risk/queue`, { headers: admin.headers })).json()) as RiskQueueEntry[];
      expect(queue.map((entry) => entry.orderId)).toContain(order._id);

      const decisions = await Promise.all([
        fetch(`${a.base}/api/admin/orders/${order._id}/approve`, { method: 'POST', headers: admin.headers, body: JSON.stringify({ note: 'from a' }) }),
        fetch(`${b.base}/api/admin/orders/${order._id}/cancel`, { method: 'POST', headers: admin.headers, body: JSON.stringify({ note: 'from b' }) }),
      ]);
      const statuses = decisions.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 409]);
      const refused = decisions.find((answer) => answer.status === 409)!;
      expect(await refused.json()).toEqual({ error: riskMessages.notInReview });
      const approved = decisions[0]!.status === 200;

      const settled = await eventually(async () => {
        const current = (await (await fetch(`${b.base}/api/orders/${order._id}?token=${token}`)).json()) as Order;
        return current.status !== 'In review' && (current.status !== 'Paid' || current.deliveryStatus === 'Delivered') ? current : undefined;
      }, 15_000);
      expect(settled?.status).toBe(approved ? 'Paid' : 'Cancelled');
      const [keys] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from product_keys where order_id = ${order._id}`);
      expect(keys!.n).toBe(approved ? 1 : 0);
      const [decided] = await queryRows<{ verdict: string }>(database.db, sql`select verdict from risk_assessments where order_id = ${order._id}`);
      expect(decided!.verdict).toBe(approved ? 'approved' : 'cancelled');
    }
  });
});
