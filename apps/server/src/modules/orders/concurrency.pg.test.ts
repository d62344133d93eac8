// 100 buyers racing for the last 10 keys, over real HTTP so the requests truly overlap, on
// PostgreSQL (the embedded database runs one statement at a time, so it cannot race).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateOrderAnswer, TestPaymentAnswer } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { politely } from '../../test/cluster-kit.ts';
import { ordersTestApp, PAYING_CARD, type Buyer, type OrdersTestApp } from './test-kit.ts';

const BUYERS = 100;
const STOCK = 10;

describe.skipIf(!process.env.DATABASE_URL)('100 buyers racing for the last 10 keys (PostgreSQL)', () => {
  let t: OrdersTestApp;
  let base: string;
  let buyers: Buyer[];

  beforeAll(async () => {
    // The 100 buyers all call from this machine: the per-address caps on unpaid orders (decision 016) are scaled away.
    t = await ordersTestApp({ env: { RATE_LIMIT_SCALE: '1000' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    buyers = await t.buyers(BUYERS);
  });
  afterAll(() => t.close());

  /** A call as the web app makes it: a busy store's 503 is asked again after its Retry-After (the 100 arrive at once). */
  async function call(buyer: Buyer, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await politely(`${base}${path}`, {
      method: 'POST',
      headers: { ...buyer.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('sells exactly 10, each key once, with a clear 409 for everyone else and no deadlock', async () => {
    const scarce = await t.gameWithStock(STOCK, 1);
    const plenty = await t.gameWithStock(1000, 2);
    const { title } = (await t.app.inject({ url: `/api/games/${scarce}` })).json<{ title: string }>();

    // Each buyer wants both games, listed in either order: rows locked in different orders would deadlock.
    const outcomes = await Promise.all(
      buyers.map(async (buyer, n) => {
        const items = n % 2 === 0 ? [{ gameId: scarce, quantity: 1 }, { gameId: plenty, quantity: 1 }] : [{ gameId: plenty, quantity: 1 }, { gameId: scarce, quantity: 1 }];
        const placed = await call(buyer, '/api/orders', { items });
        if (placed.status !== 201) return { placed };
        const { order } = placed.body as unknown as CreateOrderAnswer;
        return { placed, paid: await call(buyer, `/api/payments/test/${order._id}`, PAYING_CARD) };
      }),
    );

    const statuses = outcomes.map((outcome) => outcome.placed.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(STOCK);
    expect(statuses.filter((status) => status === 409)).toHaveLength(BUYERS - STOCK);
    for (const outcome of outcomes.filter((o) => o.placed.status === 409)) expect(outcome.placed.body).toEqual({ error: `"${title}" is out of stock` });
    const payments = outcomes.flatMap((outcome) => (outcome.paid ? [outcome.paid] : []));
    expect(payments.map((paid) => [paid.status, (paid.body as unknown as TestPaymentAnswer).deliveryStatus])).toEqual(Array(STOCK).fill([200, 'Delivered']));

    const [orders] = await queryRows<{ delivered: number; all: number }>(
      t.database.db,
      sql`select count(*) filter (where status = 'Paid' and delivery_status = 'Delivered')::int as delivered, count(*)::int as all from orders`,
    );
    expect(orders).toEqual({ delivered: STOCK, all: STOCK });
    const keys = await queryRows<{ game_id: string; keys: number; serials: number; owners: number }>(
      t.database.db,
      sql`select game_id, count(*)::int as keys, count(distinct serial_hash)::int as serials, count(distinct user_id)::int as owners
          from product_keys group by game_id order by keys`,
    );
    expect(keys.map(({ keys: n, serials, owners }) => ({ n, serials, owners }))).toEqual([
      { n: STOCK, serials: STOCK, owners: STOCK },
      { n: STOCK, serials: STOCK, owners: STOCK },
    ]);
    expect(await t.stockOf(scarce)).toBe(0);
    expect(await t.stockOf(plenty)).toBe(1000 - STOCK);
  });
});
