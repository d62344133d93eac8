// Sellers who deliver just in time (issue 24) on two real server processes over one PostgreSQL. One
// game is offered by three declared-stock sellers, fakes on loopback, each cheaper than the house
// (supplier stock, within 10 %): a failing one that errs (cheapest), a slow one whose keys come past
// the provide deadline, and a good one. Both failing sellers are stubborn: they resume their offer as
// soon as the store pauses or hides it, so failures keep coming through the whole run. Buyers spread
// over both instances; each failure moves the paid line to the next offer. After each run: every paid
// line is delivered or refunded (none stuck), no serial is in two libraries, the ledger sums to zero
// and no reservation is left open for a settled line; the same when one instance is killed (SIGKILL)
// with provides under way (the survivor takes over), and when PostgreSQL restarts mid-provide. And a
// line left on the offer that failed it (its instance died between the two steps) is moved on.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListAnswer, GameOffer, Offer, Seller } from '@keystore/contract';
import { inList, openDatabase, queryRows, type Database } from '../db/client.ts';
import { CATALOG_CHANNEL } from '../modules/catalog/sync.ts';
import { startFakeSeller, type FakeBehaviour, type FakeSeller } from '../modules/offers/test-kit.ts';
import {
  canRunOwnPostgres,
  customersIn,
  eventually,
  ownPostgres,
  politely,
  scratchDatabase,
  SHARED_POSTGRES,
  startInstance,
  type Instance,
  type OwnPostgres,
  CUSTOMER_PASSWORD,
} from '../test/cluster-kit.ts';

/** Deadlines shortened so that a run takes seconds: a slow seller's line fails after 3 × 1.5 s + 2 × 0.2 s. */
const TIMINGS = { SELLER_RESERVE_TIMEOUT_MS: '1500', SELLER_PROVIDE_TIMEOUT_MS: '1500', SELLER_PROVIDE_RETRY_MS: '200' };
/** The slow seller's keys come this long after each provide: past the deadline, every time. */
const SLOW_MS = 2000;
/** Purchases under way at once over both instances. */
const CONCURRENCY = 16;
const OPEN_STATES = ['requested', 'reserved', 'provided'];
const CARD = { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123', name: 'Cluster Buyer' };
/**
 * 60 buyers for 80 keys of which the failing sellers promise 40: lines that fail over find the good
 * seller's and the house's 40 taken by then, so some are refunded, and that path is crossed too.
 */
const SCARCE = { error: 10, slow: 30, good: 20, house: 20 };

interface Market {
  gameId: string;
  sellers: Array<{ behaviour: FakeBehaviour; fake: FakeSeller; offerId: string; headers: Record<string, string> }>;
  fake(behaviour: FakeBehaviour): FakeSeller;
}

/**
 * One game with `stocks.house` keys at the supplier, and three declared sellers set up as a seller does
 * it, over HTTP: apply, be approved by the owner (hold 0 days), offer, register the webhook, declare the stock.
 */
async function declaredMarket(databaseUrl: string, database: Database, [a, b]: Instance[], offset: number, stocks: { error: number; slow: number; good: number; house: number }): Promise<Market> {
  const [game] = await queryRows<{ id: string }>(database.db, sql`select id from games where active and not hidden and price_cents > 500 order by popularity desc, id offset ${offset} limit 1`);
  const gameId = game!.id;
  await database.db.execute(sql`update games set supplier_stock = ${stocks.house}, reserved = 0 where id = ${gameId}`);
  await database.notify(CATALOG_CHANNEL, 'test');
  const offersOn = async (instance: Instance) => (await (await fetch(`${instance.base}/api/games/${gameId}/offers`)).json()) as GameOffer[];
  for (const instance of [a!, b!]) expect(await eventually(async () => (await offersOn(instance))[0]?.stock === stocks.house, 10_000)).toBe(true);
  const [house] = await offersOn(a!);
  // The good seller's price a little under the house's, the others a little under that: all within 10 %.
  const goodNet = Math.floor((house!.price * 100 - 10) / 1.1) / 100;
  const [admin, ...owners] = await customersIn(databaseUrl, 4);
  await database.db.execute(sql`update users set role = 'admin' where id = ${admin!.userId}`);
  const call = async <T>(instance: Instance, headers: Record<string, string>, method: string, path: string, body: unknown): Promise<T> => {
    const answer = await fetch(`${instance.base}${path}`, { method, headers, body: JSON.stringify(body) });
    expect(answer.status, `${method} ${path}: ${answer.status}`).toBeLessThan(300);
    return (await answer.json()) as T;
  };
  const plan: Array<[FakeBehaviour, number, number]> = [
    ['error', goodNet - 0.1, stocks.error],
    ['slow-provide', goodNet - 0.05, stocks.slow],
    ['good', goodNet, stocks.good],
  ];
  const sellers: Market['sellers'] = [];
  for (const [n, [behaviour, net, stock]] of plan.entries()) {
    const owner = owners[n]!;
    // Each step on one instance or the other: a seller's setup is no instance's own.
    const [one, other] = n % 2 === 0 ? [a!, b!] : [b!, a!];
    const fake = await startFakeSeller(behaviour, { delayMs: SLOW_MS });
    const { seller } = await call<{ seller: Seller }>(one, owner.headers, 'POST', '/api/sellers', { name: `Just In Time ${offset} ${behaviour}`, contactEmail: 'jit@example.com', country: 'NL' });
    await call(other, admin!.headers, 'PATCH', `/api/admin/sellers/${seller._id}`, { status: 'active', holdDays: 0 });
    const { offer } = await call<{ offer: Offer }>(one, owner.headers, 'POST', '/api/seller/offers', { gameId, netPrice: Number(net.toFixed(2)) });
    const hook = await call<{ url: string; secret: string }>(other, owner.headers, 'PUT', '/api/seller/webhook', { url: fake.url, password: CUSTOMER_PASSWORD });
    fake.secret = hook.secret;
    await call(one, owner.headers, 'PATCH', `/api/seller/offers/${offer._id}`, { delivery: 'declared', declaredStock: stock });
    sellers.push({ behaviour, fake, offerId: offer._id, headers: owner.headers });
  }
  // Cheapest first: the failing seller, the slow one, the good one (those promising any), then the house.
  const promising = sellers.filter((_, n) => plan[n]![2] > 0);
  const shown = await offersOn(b!);
  expect(shown.map((offer) => offer.offerId).slice(0, promising.length)).toEqual(promising.map((seller) => seller.offerId));
  return { gameId, sellers, fake: (behaviour) => sellers.find((seller) => seller.behaviour === behaviour)!.fake };
}

/**
 * The failing sellers resume their offer whenever the store takes it out (paused after three failures
 * in a row, or hidden by the breaker), through whichever instance is up. Answers a stop.
 */
function stubborn(market: Market, instances: () => Instance[]): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const seller of market.sellers.filter((candidate) => candidate.behaviour !== 'good')) {
        const up = instances();
        const base = up[Math.floor(Math.random() * up.length)]?.base;
        if (!base) continue;
        const patch = (body: object) => fetch(`${base}/api/seller/offers/${seller.offerId}`, { method: 'PATCH', headers: seller.headers, body: JSON.stringify(body) }).then(async (answer) => (answer.ok ? ((await answer.json()) as { offer: Offer }).offer : undefined));
        try {
          const offer = await patch({});
          if (offer?.status === 'paused') await patch({ status: 'active' });
          else if (offer?.hiddenUntil) {
            await patch({ status: 'paused' });
            await patch({ status: 'active' });
          }
        } catch {
          // the instance went away or the database is down: next time
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

/** A purchase as cluster-kit's, telling an order never placed (placed 0: cut off, or refused) from a payment cut off (paid undefined). */
async function purchaseOnce(base: string, headers: Record<string, string>, gameId: string): Promise<{ placed: number; paid: number | undefined }> {
  let placed: Response;
  try {
    placed = await politely(`${base}/api/orders`, { method: 'POST', headers, body: JSON.stringify({ items: [{ gameId, quantity: 1 }] }) });
  } catch {
    return { placed: 0, paid: undefined };
  }
  const body = (await placed.json().catch(() => ({}))) as { order?: { _id: string } };
  if (placed.status !== 201 || !body.order) return { placed: placed.status, paid: undefined };
  const paid = await fetch(`${base}/api/payments/test/${body.order._id}`, { method: 'POST', headers, body: JSON.stringify(CARD) })
    .then(async (answer) => {
      await answer.arrayBuffer();
      return answer.status;
    })
    .catch(() => undefined);
  return { placed: 201, paid };
}

/**
 * Runs `buyers` purchases of one key, `CONCURRENCY` at a time, each on an instance `pick` chooses. A
 * buyer whose order could not be placed (the instance gone, the database away) tries again a second
 * later, a few times, as a shopper reloads; one whose payment was cut off does not (it may have gone through).
 */
async function purchases(buyers: Array<{ headers: Record<string, string> }>, gameId: string, pick: (n: number) => Instance | undefined) {
  const results: Array<{ placed: number; paid: number | undefined; tries: number }> = [];
  let next = 0;
  const worker = async () => {
    while (next < buyers.length) {
      const n = next++;
      let result = { placed: 0, paid: undefined as number | undefined, tries: 0 };
      for (let attempt = 0; attempt < 8; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
        const instance = pick(n + attempt);
        if (!instance) continue;
        result = { ...(await purchaseOnce(instance.base, buyers[n]!.headers, gameId)), tries: attempt + 1 };
        if (result.placed === 201 || result.placed === 409) break;
      }
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

/** Slow provides the store is waiting for right now (asked less than a deadline ago). */
const slowProvidesUnderWay = (market: Market) => market.fake('slow-provide').callsOf('provide').filter((call) => Date.now() - call.at < Number(TIMINGS.SELLER_PROVIDE_TIMEOUT_MS) - 300).length;

/** Waits until no paid order of the game is still waiting for keys; answers the audit of its lines. */
async function settle(database: Database, gameId: string, withinMs: number) {
  await eventually(
    async () => {
      const [left] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from orders o where o.status = 'Paid' and o.delivery_status <> 'Delivered' and exists (select 1 from order_lines l where l.order_id = o.id and l.game_id = ${gameId})`,
      );
      return left!.n === 0;
    },
    withinMs,
    250,
  );
  const [lines] = await queryRows<{ paid: number; delivered: number; refunded: number; refunded_with_keys: number; delivered_without_reservation: number }>(
    database.db,
    sql`with paid as (
          select l.id, l.quantity, l.seller_id, l.offer_id, o.delivery_status, (l.refunded_at is not null or o.status = 'Refunded') as refunded,
            (select count(*)::int from product_keys k where k.line_id = l.id and k.voided_at is null) as keys
          from order_lines l join orders o on o.id = l.order_id where l.game_id = ${gameId} and o.paid_at is not null
        )
        select count(*)::int as paid,
          count(*) filter (where not refunded and delivery_status = 'Delivered' and keys = quantity)::int as delivered,
          count(*) filter (where refunded)::int as refunded,
          count(*) filter (where refunded and keys > 0)::int as refunded_with_keys,
          count(*) filter (where not refunded and seller_id <> 'house'
            and not exists (select 1 from seller_reservations r where r.line_id = paid.id and r.offer_id = paid.offer_id and r.state = 'delivered'))::int as delivered_without_reservation
        from paid`,
  );
  const [open] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from seller_reservations r join order_lines l on l.id = r.line_id join orders o on o.id = l.order_id
        where r.game_id = ${gameId} and r.state in ${inList(OPEN_STATES)}
          and (o.delivery_status = 'Delivered' or o.status = 'Refunded' or l.refunded_at is not null)`,
  );
  const [keys] = await queryRows<{ live: number; distinct: number }>(database.db, sql`select count(*)::int as live, count(distinct (game_id, serial_hash))::int as distinct from product_keys where voided_at is null`);
  const [ledger] = await queryRows<{ sum: string }>(database.db, sql`select coalesce(sum(amount_cents), 0)::text as sum from ledger_lines`);
  const [failures] = await queryRows<{ after_payment: number; at_placement: number; fees: number }>(
    database.db,
    sql`select count(*) filter (where state = 'failed' and reason not like 'reserve refused%')::int as after_payment,
          count(*) filter (where state = 'failed' and reason like 'reserve refused%')::int as at_placement,
          (select count(*)::int from ledger_entries e where e.kind = 'fee' and e.id in (select 'fee-' || id from seller_reservations where game_id = ${gameId})) as fees
        from seller_reservations where game_id = ${gameId}`,
  );
  const bySeller = await queryRows<{ seller_name: string; n: number }>(
    database.db,
    sql`select l.seller_name, count(*)::int as n from order_lines l join orders o on o.id = l.order_id where l.game_id = ${gameId} and o.delivery_status = 'Delivered' group by l.seller_name order by n desc`,
  );
  return { lines: lines!, openForSettled: open!.n, keys: keys!, ledger: Number(ledger!.sum), failures: failures!, bySeller };
}

/** What every run must end with, whatever happened during it. */
function expectSettled(after: Awaited<ReturnType<typeof settle>>) {
  expect(after.lines.paid).toBeGreaterThan(0);
  expect(after.lines.delivered + after.lines.refunded, 'every paid line delivered or refunded').toBe(after.lines.paid);
  expect(after.lines.refunded_with_keys).toBe(0);
  expect(after.lines.delivered_without_reservation, "a seller's delivered line has its reservation delivered").toBe(0);
  expect(after.openForSettled, 'no reservation left open for a settled line').toBe(0);
  expect(after.keys.live, 'no serial twice').toBe(after.keys.distinct);
  expect(after.ledger, 'the ledger sums to zero').toBe(0);
  // Every failure after payment cost its seller the fee, once.
  expect(after.failures.fees).toBe(after.failures.after_payment);
}

const describeLine = (after: Awaited<ReturnType<typeof settle>>) =>
  `${after.lines.paid} paid lines: ${after.lines.delivered} delivered (${after.bySeller.map((row) => `${row.seller_name} ${row.n}`).join(', ')}), ${after.lines.refunded} refunded; ` +
  `${after.failures.after_payment} failovers after payment, ${after.failures.at_placement} at placement`;

describe.skipIf(!SHARED_POSTGRES)('sellers who deliver just in time, over two instances on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  let a: Instance;
  let b: Instance;
  const fakes: FakeSeller[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'jit');
    a = await startInstance({ databaseUrl: scratch.url, env: TIMINGS });
    b = await startInstance({ databaseUrl: scratch.url, env: TIMINGS });
    database = await openDatabase({ url: scratch.url });
    await eventually(async () => ((await (await fetch(`${b.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await database?.close();
    await scratch?.drop();
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  it('delivers or refunds every one of 500 purchases while two of three sellers fail, and the ledger balances', { timeout: 240_000 }, async () => {
    const market = await declaredMarket(scratch.url, database, [a, b], 0, { error: 40, slow: 40, good: 300, house: 5000 });
    fakes.push(...market.sellers.map((seller) => seller.fake));
    const buyers = await customersIn(scratch.url, 500);
    const started = Date.now();
    const stop = stubborn(market, () => [a, b]);
    const results = await purchases(buyers, market.gameId, (n) => (n % 2 === 0 ? a : b));
    await stop();
    const after = await settle(database, market.gameId, 60_000);
    // Nothing failed here (no instance died): a placement tried again is one the store answered with an error.
    const retried = results.filter((result) => result.tries > 1).length;
    console.log(`500 purchases over two instances in ${((Date.now() - started) / 1000).toFixed(1)} s (${retried} placements answered with an error and tried again): ${describeLine(after)}`);
    expect(results.filter((result) => result.paid === 200)).toHaveLength(500);
    expect(after.lines.paid).toBe(500);
    expectSettled(after);
    // Both failing sellers were asked, failed, and their lines went on to another offer.
    expect(after.failures.after_payment).toBeGreaterThan(0);
    expect(market.fake('error').callsOf('provide').length).toBeGreaterThan(0);
    expect(market.fake('slow-provide').callsOf('provide').length).toBeGreaterThan(0);
    expect(after.bySeller.find((row) => row.seller_name.endsWith('error') || row.seller_name.endsWith('slow-provide'))).toBeUndefined();
  });

  it('finishes every paid line when an instance is killed with provides under way: the survivor takes them over', { timeout: 180_000 }, async () => {
    const market = await declaredMarket(scratch.url, database, [a, b], 1, SCARCE);
    fakes.push(...market.sellers.map((seller) => seller.fake));
    const buyers = await customersIn(scratch.url, 60);
    const alive = () => [a, b].filter((instance) => instance.child.exitCode === null && instance.child.signalCode === null);
    const stop = stubborn(market, alive);
    // A first wave on A alone, so that A surely has slow provides under way when it dies; then both.
    const first = purchases(buyers.slice(0, 12), market.gameId, () => alive().find((instance) => instance === a) ?? alive()[0]);
    expect(await eventually(async () => slowProvidesUnderWay(market) >= 3, 30_000, 20)).toBe(true);
    const rest = purchases(buyers.slice(12), market.gameId, (n) => alive()[n % alive().length]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const killedAt = Date.now();
    expect(await a.stop('SIGKILL')).toBe('SIGKILL');
    const results = [...(await first), ...(await rest)];
    await stop();
    const after = await settle(database, market.gameId, 60_000);
    // Reservations A was asking for when it died were asked again (a run asks at most 3 times).
    const asked = new Map<string, number>();
    for (const call of market.fake('slow-provide').callsOf('provide')) asked.set(call.reservationId!, (asked.get(call.reservationId!) ?? 0) + 1);
    const takenOver = [...asked.values()].filter((n) => n > 3).length;
    console.log(`kill -9 with provides under way: settled ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill; ${takenOver} slow reservations asked again by the survivor; ${describeLine(after)}`);
    expect(takenOver).toBeGreaterThan(0);
    expect(results.some((result) => result.paid === 200)).toBe(true);
    expect(after.lines.paid).toBeLessThanOrEqual(buyers.length);
    expectSettled(after);
    expect(b.child.exitCode).toBeNull();
    a = await startInstance({ databaseUrl: scratch.url, env: TIMINGS });
  });

  it('gives the refund a failover owed when the run that owed it died before giving it', { timeout: 60_000 }, async () => {
    const market = await declaredMarket(scratch.url, database, [a, b], 2, { error: 0, slow: 0, good: 5, house: 5 });
    fakes.push(...market.sellers.map((seller) => seller.fake));
    const [buyer] = await customersIn(scratch.url, 1);
    const placed = await politely(`${a.base}/api/orders`, { method: 'POST', headers: buyer!.headers, body: JSON.stringify({ items: [{ gameId: market.gameId, quantity: 1 }] }) });
    expect(placed.status).toBe(201);
    const { order } = (await placed.json()) as { order: { _id: string } };
    // What the failover's one transaction leaves when its instance dies before the provider's refund: the
    // reservation failed and the line marked owed its refund, together (decision 031). A failed reservation
    // whose line is not marked so can no longer arise.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`update seller_reservations set state = 'failed', reason = 'reserve refused: no other offer, and the instance died before the refund', updated_at = now() where order_id = ${order._id}`);
      await tx.execute(sql`update order_lines set refund_owed_at = now() where order_id = ${order._id}`);
    });
    const paid = await fetch(`${b.base}/api/payments/test/${order._id}`, { method: 'POST', headers: buyer!.headers, body: JSON.stringify(CARD) });
    expect(paid.status).toBe(200);
    const after = await settle(database, market.gameId, 15_000);
    expectSettled(after);
    expect(after.lines.refunded).toBe(1);
    const [row] = await queryRows<{ status: string }>(database.db, sql`select status from orders where id = ${order._id}`);
    expect(row!.status).toBe('Refunded');
    expect(market.fake('good').callsOf('provide')).toHaveLength(0);
  });
});

describe.skipIf(!SHARED_POSTGRES || !canRunOwnPostgres)('sellers who deliver just in time when PostgreSQL restarts mid-provide', () => {
  let postgres: OwnPostgres;
  let database: Database;
  let a: Instance;
  let b: Instance;
  const fakes: FakeSeller[] = [];

  beforeAll(async () => {
    postgres = await ownPostgres();
    a = await startInstance({ databaseUrl: postgres.url, env: TIMINGS });
    b = await startInstance({ databaseUrl: postgres.url, env: TIMINGS });
    database = await openDatabase({ url: postgres.url });
    await eventually(async () => ((await (await fetch(`${b.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await database?.close();
    await postgres?.destroy();
    await Promise.all(fakes.map((fake) => fake.close()));
  });

  it('finishes every paid line after the database comes back, with no key twice and the ledger at zero', { timeout: 180_000 }, async () => {
    const market = await declaredMarket(postgres.url, database, [a, b], 0, SCARCE);
    fakes.push(...market.sellers.map((seller) => seller.fake));
    const buyers = await customersIn(postgres.url, 60);
    const stop = stubborn(market, () => [a, b]);
    const burst = purchases(buyers, market.gameId, (n) => (n % 2 === 0 ? a : b));
    expect(await eventually(async () => slowProvidesUnderWay(market) >= 3, 30_000, 20)).toBe(true);
    // pg_ctl stop -m fast, then start: every connection of both instances is cut mid-provide.
    const restartedAt = Date.now();
    await postgres.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await postgres.start();
    const results = await burst;
    await stop();
    for (const instance of [a, b]) expect(await eventually(async () => (await fetch(`${instance.base}/api/health/ready`)).status === 200, 30_000)).toBe(true);
    const after = await settle(database, market.gameId, 90_000);
    console.log(`PostgreSQL restarted mid-provide: settled ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart; ${describeLine(after)}`);
    expect(results.some((result) => result.paid === 200)).toBe(true);
    expect(after.lines.paid).toBeLessThanOrEqual(buyers.length);
    expectSettled(after);
    for (const instance of [a, b]) expect(instance.child.exitCode).toBeNull();
  });
});
