// Wishlist benchmark (issue 31): what recording price points and turning them into alerts costs, on
// PostgreSQL at 70,000 titles, 3 sellers on the first 1,000 of them and 10,000 customers each wishing
// for 5 of those 1,000 (npm run seed:synthetic -- 70000 0 1000 10000). Measured in one run, each with
// the price-point triggers off and on (alternating, the same work each time):
//   - a sync's write of all 70,000 products, 7,000 of them at a new price (the sync's upsertProducts);
//   - one seller repricing its 1,000 offers one by one (the offers service, as PATCH /api/seller/offers/{id} does);
//   - then the alert run over what they recorded (the job's sendAlerts), and how many alerts it wrote.
//   npm run bench:wishlist
import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, queryRows } from '../apps/server/src/db/client.ts';
import { upsertProducts } from '../apps/server/src/modules/catalog/store.ts';
import { SYNTHETIC_SUPPLIER, syntheticProducts } from '../apps/server/src/modules/catalog/synthetic.ts';
import { figure, isMain, printFigures, type Figure } from './figures.ts';
import { BENCH_SECRETS, pgAdmin, pgDatabase } from './server.ts';

const DB_NAME = 'keystore_bench_wishlist';
const TITLES = 70_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

export async function wishlistFigures(): Promise<Figure[]> {
  const url = pgDatabase(DB_NAME);
  await pgAdmin(`drop database if exists ${DB_NAME} with (force)`);
  await pgAdmin(`create database ${DB_NAME}`);
  const seeded = spawnSync(process.execPath, ['apps/server/src/scripts/seed-synthetic.ts', String(TITLES), '0', '1000', '10000'], {
    env: { ...process.env, DATABASE_URL: url, ...BENCH_SECRETS },
    encoding: 'utf8',
  });
  if (seeded.status !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
  console.log(seeded.stdout.trim());

  const config = loadConfig({ ...process.env, DATABASE_URL: url, ...BENCH_SECRETS, NODE_ENV: 'development', LOG_LEVEL: 'warn' });
  const database = await openDatabase({ url });
  const app = await buildApp({ config, database, catalog: { autoSync: false } });
  await app.ready();
  // The alert job runs here by hand, at the moments measured: its schedule would take the cluster lock
  // at any moment (answering 0 to the hand run) and work during the other measurements.
  await app.wishlist.stop();
  try {
    const db = database.db;
    const products = syntheticProducts(TITLES);
    const [seller] = await queryRows<{ id: string }>(db, sql`select seller_id as id from offers order by seller_id limit 1`);
    const sellerRow = (await app.sellers.find(seller!.id))!;
    const offerIds = (await queryRows<{ id: string }>(db, sql`select id from offers where seller_id = ${seller!.id} order by id`)).map((row) => row.id);
    const triggers = async (on: boolean) => {
      for (const name of ['games_price_point_moved', 'games_price_point_added']) await db.execute(sql.raw(`alter table games ${on ? 'enable' : 'disable'} trigger ${name}`));
    };
    const points = async () => (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from price_points`))[0]!.n;
    // Clears what earlier rounds alerted, so each alert run has the same work.
    const forgetAlerts = () => db.execute(sql`update wishlist_items set last_alert_at = null, last_alert_price_cents = null`);
    await app.wishlist.sendAlerts();

    const sync: Record<'off' | 'on', number[]> = { off: [], on: [] };
    const reprice: Record<'off' | 'on', number[]> = { off: [], on: [] };
    const alerts: Array<{ ms: number; sent: number; points: number }> = [];
    const writeCatalogue = async (list: typeof products) => {
      for (let start = 0; start < list.length; start += 1000) await upsertProducts(db, SYNTHETIC_SUPPLIER, list.slice(start, start + 1000), config.supplier.markupPercent, new Date());
    };
    const repriceOffers = async (cheaper: boolean) => {
      for (const [n, offerId] of offerIds.entries()) await app.offers.patchOffer(sellerRow, offerId, { netPrice: (cheaper ? 1 : 3) + (n % 50) / 10 });
    };
    // Every tenth product a fifth cheaper than the feed's own price: 7,000 new prices, 100 of them wished-for games.
    const dropped = products.map((product, n) => (n % 10 === 0 ? { ...product, priceCents: Math.max(50, Math.round(product.priceCents * 0.8)) } : product));
    for (let r = 0; r < ROUNDS; r += 1) {
      // Off first, then on first: neither mode always runs on the more worn tables.
      for (const mode of r % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        // Back to the feed's prices, unmeasured and unrecorded, and nothing alerted yet: each round does the same work.
        await triggers(false);
        await writeCatalogue(products);
        await repriceOffers(false);
        await forgetAlerts();
        await app.wishlist.sendAlerts();
        await triggers(mode === 'on');
        const before = await points();

        let started = performance.now();
        await writeCatalogue(dropped);
        sync[mode].push(performance.now() - started);

        started = performance.now();
        await repriceOffers(true);
        reprice[mode].push(performance.now() - started);

        if (mode === 'on') {
          // Only the last round's alerts are sent: 50,000 each round would make the run long for one more figure.
          if (r < ROUNDS - 1) await db.execute(sql`update wishlist_items set last_alert_at = now()`);
          started = performance.now();
          const sent = await app.wishlist.sendAlerts();
          alerts.push({ ms: performance.now() - started, sent, points: (await points()) - before });
        } else {
          await app.wishlist.sendAlerts();
        }
      }
    }
    const ratio = (on: number[], off: number[]) => median(on) / median(off);
    const rounds = (values: number[]) => values.map((ms) => Math.round(ms)).join(', ');
    console.log(`sync ms, off: ${rounds(sync.off)}; on: ${rounds(sync.on)}\nrepricing ms, off: ${rounds(reprice.off)}; on: ${rounds(reprice.on)}`);
    const last = alerts.at(-1)!;
    const alertMs = last.ms;
    return [
      figure('sync of 70,000 products (7,000 new prices), price points off', '—', `${Math.round(median(sync.off))} ms`),
      figure('sync of 70,000 products, price points on', 'no noticeable cost', `${Math.round(median(sync.on))} ms (× ${ratio(sync.on, sync.off).toFixed(2)})`, ratio(sync.on, sync.off) < 1.15),
      figure('a seller repricing 1,000 offers, price points off', '—', `${Math.round(median(reprice.off))} ms`),
      figure('a seller repricing 1,000 offers, price points on', 'no noticeable cost', `${Math.round(median(reprice.on))} ms (× ${ratio(reprice.on, reprice.off).toFixed(2)})`, ratio(reprice.on, reprice.off) < 1.15),
      figure('price points one round recorded (sync and repricing)', '—', String(last.points)),
      figure('alert run over them (10,000 wishing customers)', '—', `${Math.round(alertMs)} ms for ${last.sent} alerts (${Math.round(last.sent / (alertMs / 1000))} a second)`),
    ];
  } finally {
    await app.close();
    await database.close();
    await pgAdmin(`drop database if exists ${DB_NAME} with (force)`);
  }
}

if (isMain(import.meta)) printFigures('Wishlist: price points and alerts', await wishlistFigures());
