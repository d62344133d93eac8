// The house's shelf over two instances on one PostgreSQL (issue 29): a house key that came back from a
// dispute raised by the test gateway (on whichever instance's job) is delivered once to the next house
// buyer, whichever instance that buyer pays on, and two buyers paying at once on both instances never
// both get it: one has the shelf's key, the other a key bought from the supplier.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RISK_TEST_CARDS, TEST_CARDS, type GameListAnswer, type Order, type TestPaymentAnswer } from '@keystore/contract';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { CATALOG_CHANNEL } from '../modules/catalog/sync.ts';
import { eventually, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

describe.skipIf(!SHARED_POSTGRES)("the house's shelf over two instances on one PostgreSQL", () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'shelf');
    // Each guest pays from an address of its own (a proxy in front says which): a dispute blocks its buyer's.
    const env = { RATE_LIMIT_SCALE: '100', TRUST_PROXY: '1' };
    a = await startInstance({ databaseUrl: scratch.url, env });
    b = await startInstance({ databaseUrl: scratch.url, env });
    database = await openDatabase({ url: scratch.url });
    await eventually(async () => ((await (await fetch(`${b.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await scratch?.drop();
  });

  let guests = 0;
  /** A guest's paid order of one key on `on`, from an address of its own. */
  async function guestBuys(on: Instance, gameId: string, cardNumber: string): Promise<{ order: Order; answer: TestPaymentAnswer }> {
    guests += 1;
    const headers = { 'content-type': 'application/json', 'x-forwarded-for': `198.18.7.${guests}` };
    const placed = await fetch(`${on.base}/api/orders`, { method: 'POST', headers, body: JSON.stringify({ items: [{ gameId, quantity: 1 }], email: `shelf.${guests}.${Date.now()}@gmail.com` }) });
    expect(placed.status).toBe(201);
    const { order, token } = (await placed.json()) as { order: Order; token: string };
    const paid = await fetch(`${on.base}/api/payments/test/${order._id}?token=${token}`, { method: 'POST', headers, body: JSON.stringify({ cardNumber, expiry: '12/39', cvc: '123', name: 'Shelf Guest' }) });
    return { order, answer: (await paid.json()) as TestPaymentAnswer };
  }
  const shelf = (gameId: string) => queryRows<{ state: string; line_id: string | null }>(database.db, sql`select state, line_id from house_shelf where game_id = ${gameId}`);
  const lineOf = async (orderId: string) => (await queryRows<{ id: string }>(database.db, sql`select id from order_lines where order_id = ${orderId}`))[0]!.id;

  it('delivers a disputed order’s unrevealed house key once, to one of two buyers paying at once on both instances', async () => {
    const [game] = await queryRows<{ id: string }>(database.db, sql`select id from games where active and price_cents < 5000 order by popularity desc, id limit 1`);
    const gameId = game!.id;
    await database.db.execute(sql`update games set supplier_stock = 10, reserved = 0 where id = ${gameId}`);
    await database.notify(CATALOG_CHANNEL, 'test');

    // Paid on a with the card the test gateway disputes a few seconds later, its key never revealed.
    const disputed = await guestBuys(a, gameId, RISK_TEST_CARDS.disputed);
    expect(disputed.answer).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    await eventually(async () => (await shelf(gameId)).length === 1, 30_000);
    expect(await shelf(gameId)).toEqual([{ state: 'shelved', line_id: null }]);

    // Two guests pay at once, one on each instance: both get a key, exactly one of them the shelf's.
    const both = await Promise.all([guestBuys(a, gameId, TEST_CARDS.pays), guestBuys(b, gameId, TEST_CARDS.pays)]);
    for (const { answer } of both) expect(answer).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    const lines = await Promise.all(both.map(({ order }) => lineOf(order._id)));
    const after = await shelf(gameId);
    expect(after).toHaveLength(1);
    expect(after[0]!.state).toBe('sold');
    expect(lines).toContain(after[0]!.line_id);
    const [keys] = await queryRows<{ n: number; serials: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct serial_hash)::int as serials from product_keys where game_id = ${gameId} and voided_at is null`,
    );
    expect(keys).toEqual({ n: 2, serials: 2 });
  }, 90_000);
});
