// Synthetic wishing customers for benchmarks (issue 31): `count` verified accounts, each wishing for
// `perUser` of the first `titles` synthetic games (spread so that every one of those games is wished
// for), at the price the store shows. Ids start with `seedwisher`: seeding again adds nothing.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export async function seedWishingCustomers(db: Db, options: { count: number; perUser: number; titles: number }): Promise<number> {
  await db.execute(sql`
    insert into users (id, username, email, password_hash, role, email_verified_at, created_at, updated_at)
    select 'seedwisher' || lpad(n::text, 8, '0'), 'Seed_wisher_' || n, 'seed.wisher.' || n || '@example.com', '!', 'customer', now(), now(), now()
    from generate_series(1, ${options.count}) n
    on conflict do nothing`);
  const result = (await db.execute(sql`
    with titles as (
      select id, row_number() over (order by supplier_product_id) - 1 as n, game_shown_price(market_price_cents, price_cents, active, stock) as price
      from games where supplier = 'synthetic' order by supplier_product_id limit ${options.titles}
    )
    insert into wishlist_items (user_id, game_id, price_at_add_cents)
    select 'seedwisher' || lpad(u::text, 8, '0'), t.id, t.price
    from generate_series(1, ${options.count}) u cross join generate_series(0, ${options.perUser - 1}) k
    join titles t on t.n = (u * 7 + k * 131) % ${options.titles}
    on conflict do nothing`)) as unknown as { rowCount?: number; affectedRows?: number };
  return result.rowCount ?? result.affectedRows ?? 0;
}
