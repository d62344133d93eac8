// The wishlist's alerts over two instances on one PostgreSQL (issue 31): customers wish for a game on
// either instance, its price drops in one statement (as a sync or the owner would write it), and every
// customer gets one notification and one mail, although both instances run the alert job, and soon,
// although another database's transaction stays open all along.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { GameListAnswer } from '@keystore/contract';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { customersIn, eventually, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

const WISHERS = 40;

describe('wishlist alerts over two instances on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'wishlist');
    a = await startInstance({ databaseUrl: scratch.url, env: { RATE_LIMIT_SCALE: '100' } });
    b = await startInstance({ databaseUrl: scratch.url, env: { RATE_LIMIT_SCALE: '100' } });
    database = await openDatabase({ url: scratch.url });
    await eventually(async () => ((await (await fetch(`${b.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await scratch?.drop();
  });

  it('sends each wishing customer one alert when a price drops, whichever instance they wished on', async () => {
    const [game] = await queryRows<{ id: string; title: string; price: number }>(
      database.db,
      sql`select id, title, price_cents as price from games where active and supplier_stock > 5 and market_stock = 0 and price_cents > 1000 order by id limit 1`,
    );
    const customers = await customersIn(scratch.url, WISHERS);
    const wished = await Promise.all(customers.map((customer, n) => fetch(`${n % 2 === 0 ? a.base : b.base}/api/wishlist/${game!.id}`, { method: 'PUT', headers: customer.headers, body: '{}' })));
    expect(wished.map((answer) => answer.status)).toEqual(customers.map(() => 201));

    // A transaction of another database on the same server, open the whole time: it must delay nothing.
    const elsewhere = new pg.Client({ connectionString: SHARED_POSTGRES });
    await elsewhere.connect();
    await elsewhere.query('begin');
    await elsewhere.query('select pg_current_xact_id()');
    onTestFinished(() => elsewhere.end());

    // A quarter off, as a sync writes a new price.
    await database.db.execute(sql`update games set price_cents = ${Math.round(game!.price * 0.75)} where id = ${game!.id}`);

    const alerted = () =>
      queryRows<{ notes: number; mails: number }>(
        database.db,
        sql`select (select count(*)::int from notifications where kind = 'wishlist-alert' and link = ${`/game/${game!.id}`}) as notes,
                   (select count(*)::int from mail_outbox where headers ? 'List-Unsubscribe' and subject like ${`%${game!.title}%`}) as mails`,
      ).then((rows) => rows[0]!);
    // The job runs every 10 s on each instance, and no other suite's transactions on the server delay it.
    await eventually(async () => (await alerted()).notes === WISHERS, 30_000, 500);
    // Both instances have run their job again since: nothing more.
    await new Promise((resolve) => setTimeout(resolve, 21_000));
    expect(await alerted()).toEqual({ notes: WISHERS, mails: WISHERS });
  }, 90_000);
});
