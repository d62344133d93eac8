// A game's price history (issue 31), read from the points the database records at every change of its
// shown price or stock (price_points, migration 0027): the series of the last days, each change once.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

export interface PriceChange {
  at: Date;
  priceCents: number;
}

/**
 * The prices a game showed in the last `days`: the price it had when they began (when it had one),
 * then each change in time order. A point that only moved the stock repeats its price and is left out.
 */
export async function priceChanges(db: Db, gameId: string, days: number): Promise<PriceChange[]> {
  const rows = await queryRows<{ at: Date | string; priceCents: number }>(
    db,
    sql`(select greatest(at, now() - make_interval(days => ${days})) as at, price_cents as "priceCents", 0 as part, id
           from price_points where game_id = ${gameId} and at < now() - make_interval(days => ${days}) order by at desc, id desc limit 1)
        union all
        (select at, price_cents, 1, id from price_points where game_id = ${gameId} and at >= now() - make_interval(days => ${days}))
        order by part, at, id`,
  );
  const changes: PriceChange[] = [];
  for (const row of rows) {
    if (changes.at(-1)?.priceCents === row.priceCents) continue;
    changes.push({ at: new Date(row.at), priceCents: row.priceCents });
  }
  return changes;
}

/** The price a game showed at `at`: its last point at or before then, or undefined when none is that old. */
export async function priceAt(db: Db, gameId: string, at: Date): Promise<number | undefined> {
  const [row] = await queryRows<{ priceCents: number }>(
    db,
    sql`select price_cents as "priceCents" from price_points where game_id = ${gameId} and at <= ${at.toISOString()}::timestamptz order by at desc, id desc limit 1`,
  );
  return row?.priceCents;
}
