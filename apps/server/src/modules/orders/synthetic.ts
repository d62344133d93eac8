// A deterministic order history for the back office's dashboard (`npm run seed:synthetic`): orders of
// the synthetic customers (users/synthetic.ts) spread over the last months, most paid and
// delivered, some refunded, lapsed or declined, each with its lines and timeline. No keys are stored:
// these customers never open a library. Ids start with `seed` and are numbered (the contract's id
// pattern), so seeding again adds nothing.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

/** As many as users/synthetic.ts makes. */
const CUSTOMERS = 200;
/** The games the history buys from: the most popular ones. */
const GAMES = 200;

/** Writes `count` orders over the last `days` days of the synthetic customers (users/synthetic.ts); answers how many orders are new. */
export async function seedOrderHistory(db: Db, count: number, days = 180): Promise<number> {
  const [written] = await queryRows<{ added: number }>(
    db,
    sql`with top as (
          select row_number() over (order by popularity desc, id) - 1 as k, id as game_id, supplier_product_id, title, image, platform, price_cents, supplier_price_cents
          from (select * from game_facts where active and not hidden order by popularity desc, id limit ${GAMES}) t
        ),
        src as (
          select n, 'seedorder' || lpad(n::text, 10, '0') as id, 'seeduser' || lpad((1 + (n * 7919) % ${CUSTOMERS})::text, 10, '0') as user_id,
                 now() - ((n * 104729) % (${days} * 24 * 60)) * interval '1 minute' as at,
                 n % 100 as roll, 1 + (n % 3 = 0)::int as quantity, top.*
          from generate_series(1, ${count}) n
          join top on top.k = (n * 31) % (select count(*) from top)
        ),
        shaped as (
          select src.*,
                 case when roll < 80 then 'Paid' when roll < 88 then 'Refunded' when roll < 95 then 'Expired' else 'Declined' end as status,
                 case when roll < 88 then 'Delivered' else 'Not delivered' end as delivery
          from src
        ),
        new_orders as (
          insert into orders (id, user_id, status, delivery_status, amount_cents, provider, created_at, expires_at, paid_at, delivered_at, refunded_at, decline_reason)
          select id, user_id, status, delivery, price_cents * quantity, 'test', at, at + interval '30 minutes',
                 case when roll < 88 then at + interval '2 minutes' end,
                 case when roll < 88 then at + interval '3 minutes' end,
                 case when status = 'Refunded' then at + interval '2 days' end,
                 case when status = 'Declined' then 'Card declined' end
          from shaped
          on conflict do nothing
          returning id
        ),
        new_lines as (
          insert into order_lines (id, order_id, position, game_id, supplier_product_id, title, image, platform, quantity, unit_price_cents, supplier_price_cents, offer_id)
          select 'seedline' || lpad(shaped.n::text, 10, '0'), shaped.id, 0, shaped.game_id, shaped.supplier_product_id, shaped.title, shaped.image, shaped.platform, shaped.quantity, shaped.price_cents, shaped.supplier_price_cents, 'h' || shaped.game_id
          from shaped
          join new_orders on new_orders.id = shaped.id
        ),
        new_events as (
          insert into order_events (order_id, at, kind, from_status, to_status, actor, reason)
          select shaped.id, shaped.at, 'status', null, 'Awaiting payment', 'customer:' || shaped.user_id, null from shaped join new_orders using (id)
          union all
          select shaped.id, shaped.at + interval '2 minutes', 'status', 'Awaiting payment', case when shaped.roll < 88 then 'Paid' else shaped.status end,
                 case when shaped.status = 'Expired' then 'system:expiry' else 'provider:test' end,
                 case when shaped.status = 'Declined' then 'Card declined' end
          from shaped join new_orders using (id)
          union all
          select shaped.id, shaped.at + interval '3 minutes', 'delivery', 'Pending', shaped.delivery,
                 case when shaped.roll < 88 then 'system:delivery' when shaped.status = 'Expired' then 'system:expiry' else 'provider:test' end, null
          from shaped join new_orders using (id)
          union all
          select shaped.id, shaped.at + interval '2 days', 'status', 'Paid', 'Refunded', 'system:seed', 'Customer asked for a refund'
          from shaped join new_orders using (id) where shaped.status = 'Refunded'
        )
        select count(*)::int as added from new_orders`,
  );
  return written?.added ?? 0;
}
