// Orders benchmark: 100 buyers, each placing an order for one key and paying it with the test
// gateway's card (the keys are allocated within the payment request), against the production
// server on PostgreSQL. Runs of BENCH_SECONDS:
//   1. saturation: every buyer buys again the moment the last purchase is done: the most purchases
//      per second the store manages, and the latency when 100 purchases are always under way;
//   2. paced: the 100 buyers together start a given number of purchases a second, each timed from
//      when it was due, so waiting counts: the latency a customer sees in a busy store. The rate is
//      raised in steps of BENCH_RATE_STEP from BENCH_RATE until the p95 of the purchases that got in
//      passes 50 ms: the sustained rate is the last step that held it;
//   3. overload: twice the sustained rate. Above capacity the store sheds new orders with a fast 503
//      (decision 013): the p95 of those who got in must stay near the target, never seconds.
// Then the oversell count (keys delivered beyond a game's stock) and duplicate keys: both must be 0.
//   npm run bench:orders
//   BENCH_SECONDS=5 BENCH_BUYERS=50 BENCH_RATE=40 npm run bench:orders
// Buyers are made straight in the database (one password hash shared, sessions opened directly):
// a hundred argon2 hashes and logins are the login benchmark's subject, not this one's.
import { sql } from 'drizzle-orm';
import { Pool } from 'undici';
import { openDatabase, queryRows } from '../apps/server/src/db/client.ts';
import { SessionService } from '../apps/server/src/modules/auth/sessions.ts';
import { UsersService } from '../apps/server/src/modules/users/service.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { hashPassword } from '../apps/server/src/platform/passwords.ts';
import { DEFAULT_RISK_RULES, normalizedSerial } from '@keystore/contract';
import { KeyVault } from '../apps/server/src/modules/library/key-vault.ts';
import { GameStockRows } from '../apps/server/src/modules/catalog/game-stock.ts';
import { Market } from '../apps/server/src/modules/offers/market.ts';
import { KeyRing } from '../apps/server/src/platform/key-ring.ts';
import { cpuSecondsOf, figure, isMain, percentile, postgresCpuSeconds, printFigures, type Figure } from './figures.ts';
import { pgAdmin, pgDatabase, startBenchServer, type BenchServer } from './server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const BUYERS = Number(process.env.BENCH_BUYERS ?? 100);
const GAMES = Number(process.env.BENCH_GAMES ?? 20);
/** Keys per game: enough for most of the run, few enough that some games sell out and the 409 path runs too. */
const STOCK = Number(process.env.BENCH_STOCK ?? 300);
const TARGET_P95_MS = 50;
/** Twice the rate held before decision 025: 60–100 purchases/s, 80 in the middle. */
const SUSTAINED_GOAL = 160;
const DB_NAME = 'keystore_bench_orders';
const JWT_SECRET = 'bench-orders-secret-bench-orders-secret-01';
const BENCH_KEY = 'ab'.repeat(32);
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Bench Buyer' };

interface Tally {
  purchases: number[];
  orderMs: number[];
  payMs: number[];
  soldOut: number;
  /** New orders turned away with 503 (the store shedding load). */
  shed: number;
  undelivered: number;
  errors: Map<string, number>;
  /** CPU seconds the run cost: the server, every PostgreSQL process, this load generator. */
  cpu: { server: number; postgres: number; generator: number };
}

const newTally = (): Tally => ({ purchases: [], orderMs: [], payMs: [], soldOut: 0, shed: 0, undelivered: 0, errors: new Map(), cpu: { server: 0, postgres: 0, generator: 0 } });

/**
 * One buyer until the deadline: order a random game, pay it, again. With `interval` (ms) the buyer
 * starts a purchase every `interval` (from a random offset), timing each from when it was due.
 */
async function buyer(http: Pool, token: string, address: string, gameIds: string[], deadline: number, tally: Tally, interval?: number): Promise<void> {
  // Each buyer calls from an address of its own, as real customers do (the server trusts one proxy hop).
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-forwarded-for': address };
  const post = async (path: string, body: unknown) => {
    const answer = await http.request({ method: 'POST', path, headers, body: JSON.stringify(body) });
    return { status: answer.statusCode, retryAfter: answer.headers['retry-after'], body: (await answer.body.json()) as Record<string, unknown> };
  };
  const fail = (what: string) => tally.errors.set(what, (tally.errors.get(what) ?? 0) + 1);
  let due = performance.now() + (interval ? Math.random() * interval : 0);
  for (;;) {
    if (interval) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (performance.now() >= deadline) return;
    const started = interval ? due : performance.now();
    if (interval) due += interval;
    const gameId = gameIds[Math.floor(Math.random() * gameIds.length)]!;
    try {
      const placed = await post('/api/orders', { items: [{ gameId, quantity: 1 }] });
      const order = placed.body.order as { _id: string } | undefined;
      const ordered = performance.now();
      if (placed.status === 409) {
        tally.soldOut += 1;
        continue;
      }
      if (placed.status === 503 && placed.retryAfter) {
        tally.shed += 1;
        // As the web app does: wait what the store asks before trying again (a paced buyer's next purchase is due anyway).
        if (!interval) await new Promise((resolve) => setTimeout(resolve, Number(placed.retryAfter) * 1000));
        continue;
      }
      if (placed.status !== 201 || !order) {
        fail(`order ${placed.status}`);
        continue;
      }
      const paid = await post(`/api/payments/test/${order._id}`, CARD);
      const done = performance.now();
      if (paid.status !== 200 || paid.body.status !== 'Paid') {
        fail(`payment ${paid.status}`);
        continue;
      }
      if (paid.body.deliveryStatus !== 'Delivered') tally.undelivered += 1;
      tally.purchases.push(done - started);
      tally.orderMs.push(ordered - started);
      tally.payMs.push(done - ordered);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  }
}

async function run(server: BenchServer, tokens: string[], gameIds: string[], seconds: number, rate?: number): Promise<Tally> {
  const tally = newTally();
  const deadline = performance.now() + seconds * 1000;
  const interval = rate ? (tokens.length / rate) * 1000 : undefined;
  // Kept-alive connections, one per buyer at most, through undici's request: fetch's own work was a
  // tenth of the machine's CPU per purchase, taken from the server it measures.
  const http = new Pool(server.base, { connections: tokens.length });
  const before = { server: cpuSecondsOf(server.pid), postgres: postgresCpuSeconds(), generator: process.cpuUsage() };
  await Promise.all(tokens.map((token, n) => buyer(http, token, `10.0.${Math.floor(n / 250)}.${(n % 250) + 1}`, gameIds, deadline, tally, interval)));
  const generator = process.cpuUsage(before.generator);
  await http.close();
  tally.cpu = { server: cpuSecondsOf(server.pid) - before.server, postgres: postgresCpuSeconds() - before.postgres, generator: (generator.user + generator.system) / 1e6 };
  return tally;
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const ms = (values: number[], p: number) => percentile(sorted(values), p).toFixed(1);

function report(title: string, tally: Tally): number {
  const rate = tally.purchases.length / SECONDS;
  console.log(`\n${title}`);
  console.log(`  purchases (order + payment + keys) per second: ${rate.toFixed(0)}  (${(rate * 2).toFixed(0)} requests/s)`);
  console.log(`  order + payment + allocation: p50 ${ms(tally.purchases, 50)} ms, p95 ${ms(tally.purchases, 95)} ms, p99 ${ms(tally.purchases, 99)} ms  (target p95 ≤ ${TARGET_P95_MS} ms)`);
  console.log(`    POST /api/orders p50 ${ms(tally.orderMs, 50)} ms, p95 ${ms(tally.orderMs, 95)} ms; POST /api/payments/test p50 ${ms(tally.payMs, 50)} ms, p95 ${ms(tally.payMs, 95)} ms`);
  const offered = tally.purchases.length + tally.shed;
  const each = (cpuSeconds: number) => `${((cpuSeconds * 1000) / Math.max(1, tally.purchases.length)).toFixed(2)} ms`;
  console.log(`  CPU per purchase: server ${each(tally.cpu.server)}, PostgreSQL ${each(tally.cpu.postgres)}, load generator ${each(tally.cpu.generator)}`);
  console.log(`  shed (503 + Retry-After): ${tally.shed} (${offered ? ((tally.shed / offered) * 100).toFixed(0) : 0} % of orders); sold out (409): ${tally.soldOut}; paid but not delivered at once: ${tally.undelivered}; errors: ${tally.errors.size ? JSON.stringify(Object.fromEntries(tally.errors)) : 0}`);
  return rate;
}

/**
 * The purchase figures: the most purchases a second (saturation), the highest rate held with
 * p95 ≤ 50 ms, what overload does, and that no key was oversold or sold twice.
 */
export async function purchaseFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  await pgAdmin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  await pgAdmin(`CREATE DATABASE "${DB_NAME}"`);
  const databaseUrl = pgDatabase(DB_NAME);

  // Every buyer sends its own X-Forwarded-For: placements are capped and serialised per client address (decision 016).
  const server = await startBenchServer({ env: { DATABASE_URL: databaseUrl, JWT_SECRET, KEY_ENCRYPTION_KEY: 'ab'.repeat(32), TRUST_PROXY: '1' } });
  const database = await openDatabase({ url: databaseUrl });
  try {
    const config = loadConfig({ DATA_DIR: '/tmp/keystore-bench-orders-unused', JWT_SECRET, KEY_ENCRYPTION_KEY: 'ab'.repeat(32) });
    const users = new UsersService(database, config);
    const sessions = new SessionService(database, JWT_SECRET);
    const passwordHash = await hashPassword('BenchPass1');
    const tokens = await Promise.all(
      Array.from({ length: BUYERS }, async (_, n) => {
        const user = await users.create({ username: `Bench_${n}`, email: `bench.buyer.${n}@gmail.com`, passwordHash, verified: true });
        return sessions.open(user.id, { ip: '127.0.0.1', userAgent: 'bench' });
      }),
    );
    const games = await queryRows<{ id: string }>(database.db, sql`select id from games where active order by popularity desc, id limit ${GAMES}`);
    const gameIds = games.map((game) => game.id);
    await database.db.execute(sql`update games set supplier_stock = ${STOCK}, reserved = 0 where id in ${gameIds}`);
    // The risk desk (issue 29) stays in force, but without the two rules the load itself fires: 100
    // buyers each buying the same 20 games again and again within a minute would be held for review,
    // and this bench measures purchases that go through (its assessment is still made on each).
    const rules = DEFAULT_RISK_RULES.filter((rule) => rule.signal !== 'many-copies' && rule.signal !== 'third-paid-order-24h');
    await database.db.execute(sql`insert into risk_rule_sets (version, rules) values (2, ${JSON.stringify(rules)}::jsonb) on conflict do nothing`);
    // The marketplace (issue 23): a seller undercuts the house on half of the games with keys of its own,
    // so purchases are filled from uploaded keys first and from the supplier once those run out.
    const sellerGames = gameIds.slice(0, Math.ceil(gameIds.length / 2));
    const vault = await KeyVault.open(database.db, new KeyRing(BENCH_KEY));
    await database.db.execute(sql`insert into sellers (id, name, contact_email, country, status) values ('benchseller00001', 'Bench Seller', 'bench@example.com', 'DE', 'active') on conflict do nothing`);
    for (const [n, gameId] of sellerGames.entries()) {
      await database.db.execute(sql`insert into offers (id, seller_id, game_id, net_price_cents, price_cents)
        select ${`benchoffer${String(n).padStart(7, '0')}`}, 'benchseller00001', id, greatest(10, price_cents * 8 / 11), greatest(10, price_cents * 8 / 11) + round(greatest(10, price_cents * 8 / 11) * 0.1)
        from games where id = ${gameId} on conflict do nothing`);
    }
    let serials = 0;
    /** Tops every seller offer up to STOCK available keys, sealed as uploads are. */
    const restockSeller = async () => {
      const offers = await queryRows<{ id: string; game_id: string; available: number }>(
        database.db,
        sql`select o.id, o.game_id, (select count(*)::int from seller_keys k where k.offer_id = o.id and k.state = 'available') as available from offers o where o.seller_id = 'benchseller00001'`,
      );
      for (const offer of offers) {
        const rows = Array.from({ length: STOCK - offer.available }, () => {
          const id = `benchkey${String((serials += 1)).padStart(10, '0')}`;
          const serial = `BENCH-${id.slice(-10)}-${offer.game_id.slice(0, 6).toUpperCase()}`;
          return { id, serial, offer };
        });
        for (let start = 0; start < rows.length; start += 500) {
          await database.db.execute(sql`insert into seller_keys (id, offer_id, seller_id, game_id, serial_encrypted, serial_hash, library_hash, masked) values ${sql.join(
            rows.slice(start, start + 500).map(
              (row) =>
                sql`(${row.id}, ${row.offer.id}, 'benchseller00001', ${row.offer.game_id}, ${vault.encrypt(row.serial, row.id)}, ${vault.serialHash(normalizedSerial(row.serial))}, ${vault.serialHash(row.serial)}, ${`••••${row.serial.slice(-4)}`})`,
            ),
            sql`, `,
          )}`);
        }
      }
      // Placement reads the offers from the database; the lists' stock is not this benchmark's subject.
      await database.db.transaction((tx) => new Market(new GameStockRows()).refresh(tx, sellerGames));
    };
    await restockSeller();

    if (WARMUP_SECONDS > 0) await run(server, tokens, gameIds, WARMUP_SECONDS);
    console.log(`\n${BUYERS} buyers, ${SECONDS} s per run (after ${WARMUP_SECONDS} s warm-up), ${GAMES} games × ${STOCK} keys, PostgreSQL, demo supplier`);
    const saturation = await run(server, tokens, gameIds, SECONDS);
    const most = report(`1. saturation: ${BUYERS} purchases always under way`, saturation);
    figures.push(figure(`purchases at saturation (${BUYERS} under way)`, 'reported', `${most.toFixed(0)}/s, p95 ${ms(saturation.purchases, 95)} ms`));
    const step = Number(process.env.BENCH_RATE_STEP ?? 20);
    let sustained = 0;
    const runs: Tally[] = [saturation];
    // Sold-out games would turn purchases into cheap 409s: every run starts with full shelves.
    const refill = async () => {
      await database.db.execute(sql`update games set supplier_stock = ${STOCK} + reserved + (select count(*) from product_keys k where k.game_id = games.id and k.voided_at is null) where id in ${gameIds}`);
      await restockSeller();
    };
    const paced = async (rate: number, title: string) => {
      await refill();
      const tally = await run(server, tokens, gameIds, SECONDS, rate);
      runs.push(tally);
      report(title, tally);
      return { tally, p95: percentile(sorted(tally.purchases), 95) };
    };
    search: for (let rate = Number(process.env.BENCH_RATE ?? 40); rate <= most; rate += step) {
      // A step that misses is run once more: one pause (a checkpoint, a collection) is not the rate.
      for (const attempt of [1, 2]) {
        const { tally, p95 } = await paced(rate, `2. paced: the ${BUYERS} buyers start ${rate} purchases a second together (${((rate / most) * 100).toFixed(0)} % of run 1's rate)${attempt > 1 ? ', again' : ''}`);
        const held = p95 <= TARGET_P95_MS && tally.shed === 0 && tally.purchases.length >= rate * SECONDS * 0.95;
        console.log(`  p95 ${p95.toFixed(1)} ms is ${(p95 / TARGET_P95_MS).toFixed(2)} × the ${TARGET_P95_MS} ms target, nobody shed: ${held ? 'HELD' : 'NOT HELD'}`);
        if (held) {
          sustained = rate;
          continue search;
        }
      }
      break;
    }
    console.log(`\nsustained rate with p95 ≤ ${TARGET_P95_MS} ms: ${sustained} purchases/s`);
    figures.push(
      figure(`purchases: highest rate held with p95 ≤ ${TARGET_P95_MS} ms`, `≥ ${SUSTAINED_GOAL}/s`, `${sustained}/s`, sustained >= SUSTAINED_GOAL),
    );
    // Twice the sustained rate (the figure the issue asks for), and twice what run 1 managed at all:
    // beyond capacity, the buyers let in must stay fast and the rest be told at once to come back.
    for (const [rate, what] of [[sustained * 2, 'twice the sustained rate'], [Math.round(most * 2), "twice run 1's rate, far beyond capacity"]] as const) {
      if (rate <= 0) continue;
      const { tally, p95 } = await paced(rate, `3. overload: ${rate} purchases a second, ${what}`);
      figures.push(figure(`purchases offered at ${what}: p95 of those let in`, 'reported', `${p95.toFixed(1)} ms, ${(tally.purchases.length / SECONDS).toFixed(0)}/s served, ${tally.shed} shed`));
      console.log(`  p95 of the purchases let in: ${p95.toFixed(1)} ms (${(p95 / TARGET_P95_MS).toFixed(2)} × the target); ${(tally.purchases.length / SECONDS).toFixed(0)} purchases/s served`);
    }

    // Every key delivered against what each game had: more keys than stock is an oversell.
    // Every reservation accounted for: what open orders hold is exactly the games' reserved count.
    // The house's reservations are the games rows' count; a seller's are its reserved keys, one per key of an open line.
    const perGame = await queryRows<{ id: string; stock: number; reserved: number; held: number; seller_reserved: number; seller_held: number }>(
      database.db,
      sql`select g.id, g.stock, g.reserved,
            (select coalesce(sum(l.quantity), 0)::int from order_lines l join orders o on o.id = l.order_id
              where l.game_id = g.id and l.seller_id = 'house' and (o.status in ('Awaiting payment', 'In review') or (o.status = 'Paid' and o.delivery_status <> 'Delivered'))) as held,
            (select count(*)::int from seller_keys k where k.game_id = g.id and k.state = 'reserved') as seller_reserved,
            (select coalesce(sum(l.quantity), 0)::int from order_lines l join orders o on o.id = l.order_id
              where l.game_id = g.id and l.seller_id <> 'house' and (o.status in ('Awaiting payment', 'In review') or (o.status = 'Paid' and o.delivery_status <> 'Delivered'))) as seller_held
          from games g where g.id in ${gameIds}`,
    );
    const oversold = perGame.filter((game) => game.reserved !== game.held || game.seller_reserved !== game.seller_held).length;
    const [fromSellers] = await queryRows<{ keys: number; ledger: string | null }>(
      database.db,
      sql`select (select count(*)::int from seller_keys where state = 'sold') as keys, (select sum(amount_cents)::text from ledger_lines) as ledger`,
    );
    console.log(`keys sold from the seller's uploaded offers: ${fromSellers!.keys}; the ledger's lines sum to ${fromSellers!.ledger ?? 0}`);
    figures.push(figure('purchases filled from uploaded offers; ledger total', '> 0; 0', `${fromSellers!.keys}; ${fromSellers!.ledger ?? 0}`, fromSellers!.keys > 0 && Number(fromSellers!.ledger ?? 0) === 0));
    const unaccounted = perGame.filter((game) => game.stock < 0).length;
    const [keys] = await queryRows<{ all: number; distinct: number; delivered: number }>(
      database.db,
      sql`select count(*)::int as all, count(distinct (game_id, serial_hash))::int as distinct,
            (select count(*)::int from orders where status = 'Paid' and delivery_status = 'Delivered') as delivered from product_keys`,
    );

    console.log(`\nreservations not matching open orders (oversell risk): ${oversold} games; duplicate keys: ${keys!.all - keys!.distinct}; stock not accounted for: ${unaccounted} games; delivered orders: ${keys!.delivered}, keys: ${keys!.all}`);
    const errors = runs.reduce((sum, tally) => sum + [...tally.errors.values()].reduce((a, b) => a + b, 0), 0);
    figures.push(
      figure('keys oversold, sold twice, reservations astray', '0', `${oversold}, ${keys!.all - keys!.distinct}, ${unaccounted}`, oversold === 0 && keys!.all === keys!.distinct && unaccounted === 0),
      figure('purchases that failed (not sold out, not shed)', '0', String(errors), errors === 0),
    );
  } finally {
    await database.close();
    await server.stop();
    await pgAdmin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  }
  return figures;
}

if (isMain(import.meta)) printFigures('Purchases on PostgreSQL', await purchaseFigures());
