// Synthetic wishes for benchmarks (issue 31): each of the synthetic customers (users/synthetic.ts, ids
// `seeduser…`) wishes for `perUser` of the first `titles` synthetic games (spread so that every one of
// those games is wished for), at the price the store shows (the game's last price point). Seeding again
// adds nothing.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export async function seedWishes(db: Db, options: { customers: number; perUser: number; titles: number }): Promise<number> {
  const result = (await db.execute(sql`
    with titles as (
      select g.id, row_number() over (order by g.supplier_product_id) - 1 as n,
             (select p.price_cents from price_moves p where p.game_id = g.id order by p.id desc limit 1) as price
      from game_facts g where g.supplier = 'synthetic' order by g.supplier_product_id limit ${options.titles}
    )
    insert into wishlist_items (user_id, game_id, price_at_add_cents)
    select 'seeduser' || lpad(u::text, 10, '0'), t.id, t.price
    from generate_series(1, ${options.customers}) u cross join generate_series(0, ${options.perUser - 1}) k
    join titles t on t.n = (u * 7 + k * 131) % ${options.titles}
    on conflict do nothing`)) as unknown as { rowCount?: number; affectedRows?: number };
  return result.rowCount ?? result.affectedRows ?? 0;
}
