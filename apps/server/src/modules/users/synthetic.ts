// Synthetic customers for the back office's order history (orders/synthetic.ts): `count` accounts who
// cannot sign in (no password matches '!'), created over the last `days` days. Ids start with `seed` and
// are numbered, so seeding again adds nothing.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export const SYNTHETIC_CUSTOMERS = 200;

export async function seedSyntheticCustomers(db: Db, days = 180, count = SYNTHETIC_CUSTOMERS): Promise<void> {
  const CUSTOMERS = count;
  await db.execute(sql`
    insert into users (id, username, email, password_hash, role, email_verified_at, created_at, updated_at)
    select 'seeduser' || lpad(n::text, 10, '0'), 'Seed_customer_' || n, 'seed.customer.' || n || '@example.com', '!', 'customer',
           now(), now() - ((n * 7919) % (${days} * 24)) * interval '1 hour', now()
    from generate_series(1, ${CUSTOMERS}) n
    on conflict do nothing`);
}
