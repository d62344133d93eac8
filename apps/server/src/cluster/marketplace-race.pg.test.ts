// The marketplace under a race (issue 23), on one PostgreSQL with two real server processes: 100
// buyers spread over both instances go for one game offered by the house (10 keys from the supplier)
// and two sellers (10 uploaded keys each). Exactly the keys that exist are sold, no serial twice,
// each seller's balance is its sales less the commission, and the ledger sums to zero; the same
// when one instance is killed (SIGKILL) in the middle of the burst.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyerPriceCents, type GameListAnswer } from '@keystore/contract';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { CATALOG_CHANNEL } from '../modules/catalog/sync.ts';
import { customersIn, eventually, purchase, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

const NET_CENTS = 100;
const COMMISSION = { percent: 10, fixedCents: 0 };

describe.skipIf(!SHARED_POSTGRES)('the marketplace over two instances on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'market');
    a = await startInstance({ databaseUrl: scratch.url });
    b = await startInstance({ databaseUrl: scratch.url });
    database = await openDatabase({ url: scratch.url });
    await eventually(async () => ((await (await fetch(`${b.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await scratch?.drop();
  });

  /** A game with `houseKeys` from the supplier and two active sellers with 10 keys each at €1.00 net (cheaper than the house). */
  const market = async (offset: number, tag: string) => {
    const [game] = await queryRows<{ id: string }>(database.db, sql`select id from games where active and price_cents > 200 order by popularity desc, id offset ${offset} limit 1`);
    const gameId = game!.id;
    await database.db.execute(sql`update games set supplier_stock = 10, reserved = 0 where id = ${gameId}`);
    await database.notify(CATALOG_CHANNEL, 'test');
    const owners = await customersIn(scratch.url, 2);
    const sellers: Array<{ id: string; offerId: string; headers: Record<string, string> }> = [];
    for (const [n, owner] of owners.entries()) {
      const applied = await fetch(`${a.base}/api/sellers`, { method: 'POST', headers: owner.headers, body: JSON.stringify({ name: `Race ${tag} ${n}`, contactEmail: 'race@example.com', country: 'NL' }) });
      expect(applied.status).toBe(201);
      const { seller } = (await applied.json()) as { seller: { _id: string } };
      // Approved as the owner would; the offer made next puts the seller's keys in the market.
      await database.db.execute(sql`update sellers set status = 'active' where id = ${seller._id}`);
      const offered = await fetch(`${(n === 0 ? a : b).base}/api/seller/offers`, { method: 'POST', headers: owner.headers, body: JSON.stringify({ gameId, netPrice: NET_CENTS / 100 }) });
      expect(offered.status).toBe(201);
      const { offer } = (await offered.json()) as { offer: { _id: string } };
      const keys = Array.from({ length: 10 }, (_, k) => `RACE-${tag}-${n}-${String(k).padStart(4, '0')}`);
      const uploaded = await fetch(`${(n === 0 ? b : a).base}/api/seller/offers/${offer._id}/keys`, { method: 'POST', headers: owner.headers, body: JSON.stringify({ keys }) });
      expect(await uploaded.json()).toEqual({ added: 10, duplicates: 0, invalid: 0 });
      sellers.push({ id: seller._id, offerId: offer._id, headers: owner.headers });
    }
    // Both instances show the 30 keys before the burst.
    for (const instance of [a, b]) {
      expect(await eventually(async () => ((await (await fetch(`${instance.base}/api/games/${gameId}`)).json()) as { stock: number }).stock === 30, 10_000)).toBe(true);
    }
    return { gameId, sellers };
  };

  /** What the database says once every paid order is delivered. */
  const settle = async (gameId: string, sellers: Array<{ id: string }>) => {
    await eventually(
      async () => {
        const [left] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from orders o join order_lines l on l.order_id = o.id where l.game_id = ${gameId} and o.status = 'Paid' and o.delivery_status <> 'Delivered'`);
        return left!.n === 0;
      },
      60_000,
      250,
    );
    const [keys] = await queryRows<{ live: number; distinct_serials: number }>(
      database.db,
      sql`select count(*)::int as live, count(distinct serial_hash)::int as distinct_serials from product_keys where game_id = ${gameId} and voided_at is null`,
    );
    const sold = await queryRows<{ seller_id: string; sold: number }>(
      database.db,
      sql`select seller_id, count(*)::int as sold from seller_keys where game_id = ${gameId} and state = 'sold' group by seller_id`,
    );
    const [market] = await queryRows<{ market_stock: number; available: number }>(
      database.db,
      sql`select g.market_stock, (select count(*)::int from seller_keys k where k.game_id = g.id and k.state = 'available') as available from games g where g.id = ${gameId}`,
    );
    const balances = new Map<string, number>();
    for (const seller of sellers) {
      const [row] = await queryRows<{ sum: string | null }>(database.db, sql`select sum(amount_cents)::text as sum from ledger_lines where account in (${`seller:${seller.id}:held`}, ${`seller:${seller.id}:available`})`);
      balances.set(seller.id, Number(row!.sum ?? 0));
    }
    const [total] = await queryRows<{ sum: string | null }>(database.db, sql`select sum(amount_cents)::text as sum from ledger_lines`);
    return { keys: keys!, sold: new Map(sold.map((row) => [row.seller_id, row.sold])), market: market!, balances, total: Number(total!.sum ?? 0) };
  };

  it('sells exactly the 30 keys that exist to 100 buyers racing over both instances, and the ledger balances', { timeout: 180_000 }, async () => {
    const { gameId, sellers } = await market(0, 'calm');
    const buyers = await customersIn(scratch.url, 100);
    const results = await Promise.all(buyers.map((buyer, n) => purchase((n % 2 === 0 ? a : b).base, buyer.headers, gameId)));
    const paid = results.filter((result) => result.paid === 200);
    expect(paid).toHaveLength(30);
    expect(results.filter((result) => result.placed === 409)).toHaveLength(70);

    const after = await settle(gameId, sellers);
    expect(after.keys).toEqual({ live: 30, distinct_serials: 30 });
    const netPerKey = NET_CENTS;
    for (const seller of sellers) {
      expect(after.sold.get(seller.id)).toBe(10);
      // The price paid less the commission: the net, per key sold.
      expect(after.balances.get(seller.id)).toBe(10 * (buyerPriceCents(NET_CENTS, COMMISSION) - (buyerPriceCents(NET_CENTS, COMMISSION) - netPerKey)));
    }
    expect(after.market).toEqual({ market_stock: 0, available: 0 });
    expect(after.total).toBe(0);
  });

  it("shows an offer's new price and its pause on the other instance within a second", { timeout: 60_000 }, async () => {
    const { gameId, sellers } = await market(2, 'show');
    const shownOnB = async () => (await (await fetch(`${b.base}/api/games/${gameId}`)).json()) as { price: number; stock: number };
    const [cheap] = sellers;
    // Through A: the seller lowers its net price to €0.50; B's lists and game page show the new best price.
    let started = performance.now();
    expect((await fetch(`${a.base}/api/seller/offers/${cheap!.offerId}`, { method: 'PATCH', headers: cheap!.headers, body: JSON.stringify({ netPrice: 0.5 }) })).status).toBe(200);
    // The game page is answered from B's index, as the lists are.
    expect(await eventually(async () => (await shownOnB()).price === buyerPriceCents(50, COMMISSION) / 100, 1_000, 20)).toBe(true);
    const priceMs = performance.now() - started;
    // Paused: its 10 keys leave B's stock.
    started = performance.now();
    expect((await fetch(`${a.base}/api/seller/offers/${cheap!.offerId}`, { method: 'PATCH', headers: cheap!.headers, body: JSON.stringify({ status: 'paused' }) })).status).toBe(200);
    expect(await eventually(async () => (await shownOnB()).stock === 20, 1_000, 20)).toBe(true);
    console.log(`an offer's change on A showed on B: price after ${priceMs.toFixed(0)} ms, pause after ${(performance.now() - started).toFixed(0)} ms`);
  });

  it('sells no key twice and keeps the ledger balanced when one instance is killed mid-burst', { timeout: 240_000 }, async () => {
    const { gameId, sellers } = await market(3, 'kill');
    const buyers = await customersIn(scratch.url, 100);
    const burst = Promise.all(buyers.map((buyer, n) => purchase((n % 2 === 0 ? a : b).base, buyer.headers, gameId).catch(() => ({ placed: 0, paid: undefined, orderId: undefined }))));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await a.stop('SIGKILL')).toBe('SIGKILL');
    const results = await burst;
    // B's retry job delivers what A left paid and undelivered (A's delivery locks died with it).
    const after = await settle(gameId, sellers);
    expect(after.keys.live).toBe(after.keys.distinct_serials);
    expect(after.keys.live).toBeLessThanOrEqual(30);
    for (const seller of sellers) {
      const sold = after.sold.get(seller.id) ?? 0;
      expect(sold).toBeLessThanOrEqual(10);
      expect(after.balances.get(seller.id)).toBe(sold * NET_CENTS);
    }
    // Keys sold plus keys still on sale plus keys held by unpaid orders are the 20 uploaded.
    const [reserved] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from seller_keys where game_id = ${gameId} and state = 'reserved'`);
    expect([...after.sold.values()].reduce((sum, n) => sum + n, 0) + after.market.available + reserved!.n).toBe(20);
    expect(after.market.market_stock).toBe(after.market.available);
    expect(after.total).toBe(0);
    expect(results.some((result) => result.paid === 200)).toBe(true);
    a = await startInstance({ databaseUrl: scratch.url });
  });
});
