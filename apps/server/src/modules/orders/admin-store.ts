// The back office's reads of orders (issue 15): the filtered list (and its CSV, read in batches) and
// the dashboard's figures, each counted by PostgreSQL. The buyer's e-mail and username are joined in
// from the users table, read only, so one query can filter and page by them (decision 023).
import { sql, type SQL } from 'drizzle-orm';
import { ORDER_STATUSES, type DeliveryStatus, type OrderStatus, type PaymentProviderName } from '@keystore/contract';
import { queryRows, type Db } from '../../db/client.ts';

export interface OrderFilter {
  status?: OrderStatus | undefined;
  deliveryStatus?: DeliveryStatus | undefined;
  q?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** One row of the back office's order table, as PostgreSQL gives it. */
export interface AdminOrderDbRow {
  id: string;
  created_at: Date | string;
  status: OrderStatus;
  delivery_status: DeliveryStatus;
  amount_cents: number;
  provider: PaymentProviderName;
  user_id: string | null;
  email: string | null;
  username: string | null;
  items: string | null;
  /** created_at to the microsecond, as text: the export's cursor (a JS Date keeps milliseconds only). */
  created_exact: string;
}

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The midnight (UTC) that starts a YYYY-MM-DD day. */
export const dayStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'UTC'`;

function whereOf(filter: OrderFilter): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filter.status) conditions.push(sql`o.status = ${filter.status}`);
  if (filter.deliveryStatus) conditions.push(sql`o.delivery_status = ${filter.deliveryStatus}`);
  if (filter.from) conditions.push(sql`o.created_at >= ${dayStart(filter.from)}`);
  if (filter.to) conditions.push(sql`o.created_at < ${dayStart(filter.to)} + interval '1 day'`);
  if (filter.q) {
    const like = containing(filter.q);
    conditions.push(sql`(o.id = ${filter.q} or u.email ilike ${like} or u.username ilike ${like}
      or exists (select 1 from order_lines ql where ql.order_id = o.id and ql.title ilike ${like}))`);
  }
  return sql.join(conditions, sql` and `);
}

const rowColumns = sql`o.id, o.created_at, o.created_at::text as created_exact, o.status, o.delivery_status, o.amount_cents, o.provider, o.user_id, u.email, u.username,
  (select string_agg(case when l.quantity > 1 then l.title || ' × ' || l.quantity else l.title end, ', ' order by l.position)
     from order_lines l where l.order_id = o.id) as items`;

/** One page of the orders matching `filter`, newest first, and how many match in all. */
export async function adminOrderPage(db: Db, filter: OrderFilter, page: number, pageSize: number): Promise<{ rows: AdminOrderDbRow[]; total: number }> {
  const where = whereOf(filter);
  const [rows, [count]] = await Promise.all([
    queryRows<AdminOrderDbRow>(
      db,
      sql`select ${rowColumns} from orders o left join user_facts u on u.id = o.user_id where ${where}
          order by o.created_at desc, o.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`,
    ),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from orders o left join user_facts u on u.id = o.user_id where ${where}`),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/**
 * Every order matching `filter`, newest first, read `batch` rows at a time after the last one read
 * (keyset paging: a long export neither holds a cursor open nor skips a row as new orders come in).
 */
export async function* adminOrderBatches(db: Db, filter: OrderFilter, batch = 500): AsyncGenerator<AdminOrderDbRow[]> {
  let after: { createdExact: string; id: string } | undefined;
  for (;;) {
    const keyset = after ? sql`and (o.created_at, o.id) < (${after.createdExact}::timestamptz, ${after.id})` : sql``;
    const rows = await queryRows<AdminOrderDbRow>(
      db,
      sql`select ${rowColumns} from orders o left join user_facts u on u.id = o.user_id where ${whereOf(filter)} ${keyset}
          order by o.created_at desc, o.id desc limit ${batch}`,
    );
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
    const last = rows.at(-1)!;
    after = { createdExact: last.created_exact, id: last.id };
  }
}

/** The dashboard's order figures over whole UTC days [from, to], and those of now. */
export interface OrderFigures {
  byDay: Array<{ date: string; cents: number; orders: number }>;
  byStatus: Record<OrderStatus, number>;
  topGames: Array<{ gameId: string; title: string; units: number; cents: number }>;
  refunds: { count: number; cents: number };
  undelivered: number;
  todayCents: number;
}

/**
 * Counts the dashboard's order figures in SQL. Revenue is paid money kept (status Paid), by the day
 * of payment; every day of the period is present, zeros included. Refunds are counted by the day
 * of the refund. Orders by status are those placed in the period.
 */
export async function orderFigures(db: Db, from: string, to: string, topGames: number): Promise<OrderFigures> {
  const start = dayStart(from);
  const end = sql`${dayStart(to)} + interval '1 day'`;
  const [byDay, byStatus, top, [refunds], [now]] = await Promise.all([
    queryRows<{ date: string; cents: number; orders: number }>(
      db,
      sql`select to_char(d.day, 'YYYY-MM-DD') as date, coalesce(sum(o.amount_cents), 0)::bigint as cents, count(o.id)::int as orders
          from generate_series(${from}::date, ${to}::date, interval '1 day') as d(day)
          left join orders o on o.status = 'Paid' and o.paid_at >= (d.day at time zone 'UTC') and o.paid_at < ((d.day + interval '1 day') at time zone 'UTC')
          group by d.day order by d.day`,
    ),
    queryRows<{ status: OrderStatus; n: number }>(
      db,
      sql`select status, count(*)::int as n from orders where created_at >= ${start} and created_at < ${end} group by status`,
    ),
    queryRows<{ game_id: string; title: string; units: number; cents: number }>(
      db,
      sql`select l.game_id, max(l.title) as title, sum(l.quantity)::int as units, sum(l.quantity * l.unit_price_cents)::bigint as cents
          from orders o join order_lines l on l.order_id = o.id
          where o.status = 'Paid' and o.paid_at >= ${start} and o.paid_at < ${end}
          group by l.game_id order by units desc, cents desc, l.game_id limit ${topGames}`,
    ),
    queryRows<{ count: number; cents: number }>(
      db,
      sql`select count(*)::int as count, coalesce(sum(amount_cents), 0)::bigint as cents from orders
          where status = 'Refunded' and refunded_at >= ${start} and refunded_at < ${end}`,
    ),
    queryRows<{ undelivered: number; today: number }>(
      db,
      sql`select (select count(*)::int from orders where status = 'Paid' and delivery_status <> 'Delivered') as undelivered,
                 (select coalesce(sum(amount_cents), 0)::bigint from orders where status = 'Paid'
                   and paid_at >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC') as today`,
    ),
  ]);
  const statusCounts = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<OrderStatus, number>;
  for (const row of byStatus) statusCounts[row.status] = row.n;
  return {
    byDay: byDay.map((row) => ({ date: row.date, cents: Number(row.cents), orders: Number(row.orders) })),
    byStatus: statusCounts,
    topGames: top.map((row) => ({ gameId: row.game_id, title: row.title, units: Number(row.units), cents: Number(row.cents) })),
    refunds: { count: Number(refunds?.count ?? 0), cents: Number(refunds?.cents ?? 0) },
    undelivered: Number(now?.undelivered ?? 0),
    todayCents: Number(now?.today ?? 0),
  };
}

/** Orders placed and money paid and kept (status Paid), per buyer: the back office's customer table. */
export async function buyerFigures(db: Db, userIds: string[]): Promise<Map<string, { orders: number; spentCents: number }>> {
  if (userIds.length === 0) return new Map();
  const rows = await queryRows<{ user_id: string; orders: number; spent: string | number }>(
    db,
    sql`select user_id, count(*)::int as orders, coalesce(sum(amount_cents) filter (where status = 'Paid'), 0)::bigint as spent
        from orders where user_id in (${sql.join(userIds.map((id) => sql`${id}`), sql`, `)}) group by user_id`,
  );
  return new Map(rows.map((row) => [row.user_id, { orders: Number(row.orders), spentCents: Number(row.spent) }]));
}

/** Paid orders still without all their keys `minutes` after payment: how many, and the longest waiting. */
export async function overdueDeliveries(db: Db, minutes: number): Promise<{ count: number; oldest: string | null }> {
  const [row] = await queryRows<{ count: number; oldest: string | null }>(
    db,
    sql`select count(*)::int as count, (array_agg(id order by paid_at))[1] as oldest from orders
        where status = 'Paid' and delivery_status <> 'Delivered' and paid_at < now() - ${minutes}::int * interval '1 minute'`,
  );
  return { count: Number(row?.count ?? 0), oldest: row?.oldest ?? null };
}

/** Lines of paid orders still without their keys, and how long the oldest such order has waited since payment. */
export async function keysWaiting(db: Db): Promise<{ lines: number; oldestSeconds: number }> {
  const [row] = await queryRows<{ lines: number; oldest: number }>(
    db,
    sql`select count(*)::int as lines, coalesce(extract(epoch from now() - min(o.paid_at)), 0)::float8 as oldest
        from orders o join order_lines l on l.order_id = o.id
        where o.status = 'Paid' and o.delivery_status <> 'Delivered'`,
  );
  return { lines: Number(row?.lines ?? 0), oldestSeconds: Number(row?.oldest ?? 0) };
}

/** Games on sale that sold in the last `days` days (a paid order) and have no stock left. */
export function soldOutBestsellers(db: Db, days: number): Promise<Array<{ id: string; title: string }>> {
  return queryRows<{ id: string; title: string }>(
    db,
    sql`select g.id, g.title from game_facts g
        where g.active and not g.hidden and g.stock <= 0
          and exists (select 1 from order_lines l join orders o on o.id = l.order_id
                      where l.game_id = g.id and o.status = 'Paid' and o.paid_at > now() - ${days}::int * interval '1 day')
        order by g.title limit 50`,
  );
}

/**
 * The games paid for in the same orders as `gameId` within `days`, by how many such orders had them
 * (the most recent 2,000 orders of the game at most, so a bestseller's answer stays quick).
 */
export async function boughtWith(db: Db, gameId: string, days: number, limit: number): Promise<string[]> {
  const rows = await queryRows<{ gameId: string }>(
    db,
    sql`with together as (
          select l.order_id from order_lines l join orders o on o.id = l.order_id
          where l.game_id = ${gameId} and o.paid_at > now() - ${days}::int * interval '1 day'
          order by o.paid_at desc limit 2000
        )
        select other.game_id as "gameId" from together t join order_lines other on other.order_id = t.order_id and other.game_id <> ${gameId}
        group by other.game_id order by count(distinct other.order_id) desc, other.game_id limit ${limit}`,
  );
  return rows.map((row) => row.gameId);
}
