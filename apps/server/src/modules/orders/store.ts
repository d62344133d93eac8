// Data access for orders and their lines. Their keys are reserved, released and settled by the offers
// module, asked in the same transaction as the order's change (decisions 008 and 031).
import { and, asc, desc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { HOUSE_SELLER_ID } from '@keystore/contract';
import { PLACER_LOCK_SPACES, preparedOnce, queryRows, type Db } from '../../db/client.ts';
import { rowFromJson } from '../../db/json-rows.ts';
import { userFacts } from '../users/ports.ts';
import { orderEvents, orderLines, orders } from './schema.ts';
import { placedEvent, transition } from './transitions.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;

/** Who an order is for: a customer's account, or a guest's e-mail (issue 29). */
export type Buyer = { userId: string; email?: undefined } | { userId?: undefined; email: string };

/** The orders of a buyer: a customer's, or a guest's still without an account. */
const ofBuyer = (buyer: Buyer) => (buyer.userId !== undefined ? sql`o.user_id = ${buyer.userId}` : sql`o.user_id is null and o.email = ${buyer.email}`);

/**
 * Writes an order awaiting payment with its lines and its first event in one statement (the caller's
 * transaction holds the reserved games' rows meanwhile).
 */
export async function insertOrder(tx: Db, order: typeof orders.$inferInsert, lines: Array<typeof orderLines.$inferInsert>): Promise<void> {
  await tx.execute(
    sql`with new_order as (${tx.insert(orders).values(order).getSQL()}), placed as (${placedEvent(order.id, order.userId ? `customer:${order.userId}` : `guest:${order.email}`)})
        ${tx.insert(orderLines).values(lines).getSQL()}`,
  );
}

// The purchase path's own statements are prepared once (db/client.ts preparedOnce): they run for
// every order and every payment.
const orderById = preparedOnce((db) => db.select().from(orders).where(eq(orders.id, sql.placeholder('id'))).prepare('order_by_id'));
const linesOfOne = preparedOnce((db) =>
  db.select().from(orderLines).where(eq(orderLines.orderId, sql.placeholder('orderId'))).orderBy(asc(orderLines.position)).prepare('lines_of_order'),
);

export async function findOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await orderById(db).execute({ id });
  return row;
}

/** The buyer's order placed with this Idempotency-Key, if there is one (a guest's are kept per e-mail). */
export async function orderOfAttempt(db: Db, buyer: Buyer, idempotencyKey: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(buyer.userId !== undefined ? eq(orders.userId, buyer.userId) : and(isNull(orders.userId), eq(orders.email, buyer.email)), eq(orders.idempotencyKey, idempotencyKey)));
  return row;
}

/** Orders a guest's e-mail placed in the last `hours`, but those closed unpaid by their buyer or their time (the guest limit). */
export async function guestOrdersSince(tx: Db, email: string, hours: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${orders} where email = ${email} and created_at > now() - make_interval(hours => ${hours}) and status not in ('Cancelled', 'Expired')`,
  );
  return row?.n ?? 0;
}

/** Gives a guest's orders placed with `email` to the account that proved it; answers them. */
export async function adoptGuestOrders(tx: Db, userId: string, email: string): Promise<Array<{ id: string; gift: boolean }>> {
  return tx
    .update(orders)
    .set({ userId })
    .where(and(isNull(orders.userId), eq(orders.email, email)))
    .returning({ id: orders.id, gift: orders.gift });
}

/** Frees an order's Idempotency-Key, so the same key places a new order next time. */
export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await db.update(orders).set({ idempotencyKey: null, requestHash: null }).where(eq(orders.id, id));
}

/** The lines of one order, in their order (not in a transaction: see preparedOnce). */
export function linesOfOrder(db: Db, orderId: string): Promise<OrderLineRow[]> {
  return linesOfOne(db).execute({ orderId });
}

/** The order row, locked until the transaction ends (state changes that must not interleave). */
export async function lockOrder(tx: Db, id: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

/** Orders in review (issue 29), those whose authorisation lapses first first. */
export function ordersInReview(db: Db, limit: number): Promise<OrderRow[]> {
  return db.select().from(orders).where(eq(orders.status, 'In review')).orderBy(asc(orders.authorisedUntil)).limit(limit);
}

export function linesOf(db: Db, orderIds: string[]): Promise<OrderLineRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(asc(orderLines.orderId), asc(orderLines.position));
}

export function ordersOfUser(db: Db, userId: string): Promise<OrderRow[]> {
  return db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id));
}

/**
 * The network a client address is counted in: the address itself for IPv4, its /64 for IPv6 (one
 * subscriber's line hands out a whole /64, so single IPv6 addresses cost nothing to rotate).
 */
const networkOf = (address: string) =>
  sql`network(set_masklen(${address}::inet, case family(${address}::inet) when 4 then 32 else 64 end))`;

/**
 * Waits until no other transaction is placing an order for this customer or from this address, and
 * holds both until the caller's transaction ends (transaction-level advisory locks, on every instance
 * alike): what they hold unpaid, counted next, cannot change until this order is written or refused.
 * Always the customer first, then the address, so two placements cannot wait for each other.
 */
export async function lockPlacers(tx: Db, buyer: Buyer, address: string): Promise<void> {
  // One round trip; the customer's lock is taken first, as a select list is evaluated in order.
  await tx.execute(
    sql`select pg_advisory_xact_lock(${PLACER_LOCK_SPACES.customer}, hashtext(${buyer.userId ?? `guest:${buyer.email}`})),
               pg_advisory_xact_lock(${PLACER_LOCK_SPACES.address}, hashtext(${networkOf(address)}::text))`,
  );
}

/** What waits for payment: orders, and keys over all of them. */
export interface UnpaidTotal {
  orders: number;
  keys: number;
}

/** What the customer's orders awaiting payment hold, per game too, and what every account's from the same network holds. */
export interface UnpaidTotals {
  /** Each game's keys held unpaid, and its title as the holding line names it. */
  mine: UnpaidTotal & { keysPerGame: Map<string, number>; titles: Map<string, string> };
  here: UnpaidTotal;
}

/**
 * What waits for payment now (an order past its time no longer counts: the expiry job is putting its
 * keys back), in one round trip: the customer's unpaid lines (few: the caps keep them few), and the
 * orders and keys placed from this address's network by every account.
 */
export async function unpaidTotals(tx: Db, buyer: Buyer, address: string): Promise<UnpaidTotals> {
  const [row] = await queryRows<{ mine: Array<[string, string, number, string]>; here_orders: number; here_keys: number }>(
    tx,
    sql`select
          (select coalesce(json_agg(json_build_array(o.id, l.game_id, l.quantity, l.title)), '[]'::json)
             from ${orders} o join ${orderLines} l on l.order_id = o.id
            where ${ofBuyer(buyer)} and o.status = 'Awaiting payment' and o.expires_at > now()) as mine,
          here.orders as here_orders, here.keys as here_keys
        from (select count(distinct o.id)::int as orders, coalesce(sum(l.quantity), 0)::int as keys
                from ${orders} o join ${orderLines} l on l.order_id = o.id
               where o.status = 'Awaiting payment' and o.placed_from <<= ${networkOf(address)} and o.expires_at > now()) here`,
  );
  const lines = row?.mine ?? [];
  const keysPerGame = new Map<string, number>();
  const titles = new Map<string, string>();
  for (const [, gameId, quantity, title] of lines) {
    keysPerGame.set(gameId, (keysPerGame.get(gameId) ?? 0) + quantity);
    titles.set(gameId, title);
  }
  return {
    mine: { orders: new Set(lines.map(([orderId]) => orderId)).size, keys: lines.reduce((sum, [, , quantity]) => sum + quantity, 0), keysPerGame, titles },
    here: { orders: row?.here_orders ?? 0, keys: row?.here_keys ?? 0 },
  };
}

/**
 * Writes columns of an order that are not its state (times, references, retry bookkeeping): a change
 * of state goes through transition() (transitions.ts), which checks it and records it.
 */
export async function updateOrder(db: Db, id: string, set: Omit<Partial<OrderRow>, 'status' | 'deliveryStatus'>): Promise<void> {
  await db.update(orders).set(set).where(eq(orders.id, id));
}

/** Notes the provider's reference of an order still awaiting payment (a checkout session). */
export async function setAwaitingProviderRef(db: Db, id: string, providerRef: string): Promise<void> {
  await db.update(orders).set({ providerRef }).where(and(eq(orders.id, id), eq(orders.status, 'Awaiting payment')));
}

/**
 * Lets the caller's transaction commit without waiting for the disk (synchronous_commit off, for this
 * transaction only; the first statement of the transaction, so it is plain where it starts). Only for
 * writes a crash may lose: an allocation count, or keys the supplier hands over again for the same
 * order (decision 008). A commit that waits for the disk costs 1–4 ms here.
 */
export async function commitWithoutWaitingForDisk(tx: Db): Promise<void> {
  await tx.execute(sql`set local synchronous_commit = off`);
}

/** What an allocation run works from: the order, its lines, and who gets the receipt (none once the account is deleted). */
export interface OrderToDeliver {
  order: OrderRow;
  /** The lines still to deliver (a refunded line is not). */
  lines: OrderLineRow[];
  /** Who gets its mails: the customer, or the guest's e-mail (no name); none once the account is deleted. */
  buyer: { email: string; username: string | null } | undefined;
  /** The supplier's price of each line's game as the catalogue last heard it, by game id. */
  supplierPrices: Map<string, number>;
}

/** What a delivery reads of an order besides its row: its lines still to deliver, its buyer, and its games' supplier prices. */
const deliveryReads = (orderId: SQL, userId: SQL) => sql`
  (select coalesce(json_agg(l order by l.position), '[]'::json) from ${orderLines} l where l.order_id = ${orderId} and l.refunded_at is null) as lines,
  (select json_build_object('email', u.email, 'username', u.username) from ${userFacts} u where u.id = ${userId}) as buyer,
  (select json_object_agg(g.id, g.supplier_price_cents) from ${orderLines} l join game_facts g on g.id = l.game_id where l.order_id = ${orderId}) as prices`;

type DeliveryReads = { lines: Array<Record<string, unknown>>; buyer: OrderToDeliver['buyer'] | null; prices: Record<string, number> | null };

function toDelivery(order: OrderRow, reads: DeliveryReads): OrderToDeliver {
  return {
    order,
    lines: reads.lines.map((line) => rowFromJson(orderLines, line)),
    buyer: reads.buyer ?? (order.email ? { email: order.email, username: null } : undefined),
    supplierPrices: new Map(Object.entries(reads.prices ?? {})),
  };
}

/**
 * Counts one more allocation run of an undelivered paid order and answers it with its lines and its
 * buyer, or undefined when there is nothing to deliver. The run already owns the order
 * (Database.own). Not a change of state, and one statement: the lines and the buyer never change, so
 * they are read with the order rather than after it.
 */
export async function takeForDelivery(db: Db, id: string): Promise<OrderToDeliver | undefined> {
  const [row] = await queryRows<DeliveryReads & { taken: Record<string, unknown> }>(
    db,
    sql`with taken as (
          update ${orders} set allocation_attempts = allocation_attempts + 1
           where id = ${id} and status = 'Paid' and delivery_status = 'Pending'
          returning *
        )
        select row_to_json(taken) as taken, ${deliveryReads(sql`taken.id`, sql`taken.user_id`)}
          from taken`,
  );
  return row && toDelivery(rowFromJson(orders, row.taken), row);
}

/**
 * The delivery of an order just paid, whose row the payment's move answered (its run counted there):
 * only its lines, buyer and prices are read, in one statement; the order is not read again.
 */
export async function deliveryOfPaid(db: Db, order: OrderRow): Promise<OrderToDeliver> {
  const [row] = await queryRows<DeliveryReads>(db, sql`select ${deliveryReads(sql`${order.id}`, sql`${order.userId}`)}`);
  return toDelivery(order, row!);
}

/** Who gets an order's mails: its customer while the account exists, or the guest's e-mail. */
export async function buyerOf(db: Db, order: Pick<OrderRow, 'userId' | 'email'>): Promise<{ email: string; username: string | null } | undefined> {
  if (order.userId) {
    const [buyer] = await db.select({ email: userFacts.email, username: userFacts.username }).from(userFacts).where(eq(userFacts.id, order.userId));
    if (buyer) return buyer;
  }
  return order.email ? { email: order.email, username: null } : undefined;
}

/** Marks lines of an order refunded (those not yet); answers the lines it marked. */
export function markLinesRefunded(tx: Db, orderId: string, lineIds: string[], reason: string): Promise<OrderLineRow[]> {
  return tx
    .update(orderLines)
    .set({ refundedAt: new Date(), refundReason: reason.slice(0, 500) })
    .where(and(eq(orderLines.orderId, orderId), inArray(orderLines.id, lineIds), isNull(orderLines.refundedAt)))
    .returning();
}

/** A failed-over line found no other offer: its refund is owed (decision 031), in the failure's transaction. */
export async function markRefundOwed(tx: Db, lineId: string): Promise<void> {
  await tx.update(orderLines).set({ refundOwedAt: new Date() }).where(and(eq(orderLines.id, lineId), isNull(orderLines.refundOwedAt)));
}

/** Paid orders still without their keys `hours` after payment: the store gives their money back. */
export async function longUndelivered(db: Db, hours: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.status, 'Paid'), eq(orders.deliveryStatus, 'Pending'), lte(orders.paidAt, sql`now() - ${hours}::int * interval '1 hour'`)))
    .orderBy(asc(orders.paidAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Marks a paid order Delivered in its delivery transaction; answers false when it is no longer a
 * paid, undelivered order (refunded meanwhile: the caller rolls back, and the keys it wrote with it).
 * The update takes the row lock, so a refund waits for the delivery or the delivery sees the refund.
 */
export async function markDelivered(tx: Db, id: string, supplierOrderId: string | null): Promise<boolean> {
  const moved = await transition(tx, { id }, {
    delivery: { from: ['Pending'], to: 'Delivered' },
    whileStatus: 'Paid',
    actor: 'system:delivery',
    set: { deliveredAt: sql`now()`, supplierOrderId, nextAllocationAt: null, lastAllocationError: null },
  });
  return moved.length > 0;
}

/** Locks the order in a delivery transaction and answers its state. */
export async function lockOrderForDelivery(tx: Db, id: string): Promise<Pick<OrderRow, 'status' | 'deliveryStatus'> | undefined> {
  const [row] = await tx.select({ status: orders.status, deliveryStatus: orders.deliveryStatus }).from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

/** Paid orders whose keys are not all in; `dueOnly`: only those whose retry time has come (a run skips those another process owns). */
export async function undeliveredOrders(db: Db, options: { dueOnly: boolean; limit: number }): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'Paid'),
        sql`${orders.deliveryStatus} <> 'Delivered'`,
        options.dueOnly ? or(isNull(orders.nextAllocationAt), lte(orders.nextAllocationAt, sql`now()`)) : undefined,
      ),
    )
    .orderBy(asc(orders.nextAllocationAt))
    .limit(options.limit);
  return rows.map((row) => row.id);
}

/**
 * Expires up to `limit` orders whose time to pay is over; answers them with their lines, whose stock
 * the caller gives back in the same transaction. SKIP LOCKED: an order being paid right now is left to that payment.
 */
export async function expireDueOrders(tx: Db, limit: number): Promise<{ orders: Array<{ id: string; userId: string | null }>; lines: OrderLineRow[] }> {
  const expired = await transition(tx, { overdue: limit }, {
    status: { from: ['Awaiting payment'], to: 'Expired' },
    delivery: { from: ['Pending'], to: 'Not delivered' },
    actor: 'system:expiry',
  });
  const ids = expired.map((row) => row.id);
  return { orders: expired.map((row) => ({ id: row.id, userId: row.userId })), lines: ids.length > 0 ? await linesOf(tx, ids) : [] };
}

export type OrderEventRow = typeof orderEvents.$inferSelect;

/** An order's timeline: every change of its status and delivery status, oldest first. */
export function eventsOfOrder(db: Db, orderId: string): Promise<OrderEventRow[]> {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id));
}

/** Euro cents a customer has paid and kept: paid orders, delivered or not, less their refunded lines. */
export async function totalPaidCents(db: Db, userId: string): Promise<number> {
  const [row] = await queryRows<{ total: string | number | null }>(
    db,
    sql`select coalesce(sum(o.amount_cents), 0)
             - coalesce((select sum(l.unit_price_cents * l.quantity) from ${orderLines} l join ${orders} p on p.id = l.order_id
                          where p.user_id = ${userId} and p.status = 'Paid' and l.refunded_at is not null), 0) as total
          from ${orders} o where o.user_id = ${userId} and o.status = 'Paid'`,
  );
  return Number(row?.total ?? 0);
}

/** Marks the delay notice as sent; answers true only to the one caller that marked it (the mail goes once). */
export async function takeDelayNotice(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(orders)
    .set({ delayNoticeAt: new Date() })
    .where(and(eq(orders.id, id), isNull(orders.delayNoticeAt)))
    .returning({ id: orders.id });
  return rows.length > 0;
}

/** A line moved to another offer after its seller failed: its seller, net and commission become the new offer's, its price stays. */
export async function moveLineToOffer(tx: Db, line: Pick<OrderLineRow, 'id' | 'unitPriceCents'>, offer: { offerId: string; sellerId: string; sellerName: string; netPriceCents: number }): Promise<void> {
  await tx
    .update(orderLines)
    .set({
      offerId: offer.offerId,
      sellerId: offer.sellerId,
      sellerName: offer.sellerName,
      supplierPriceCents: offer.netPriceCents,
      // A commission below zero is what the store adds of its own; the house's is known once its keys are bought.
      commissionCents: offer.sellerId === HOUSE_SELLER_ID ? null : line.unitPriceCents - offer.netPriceCents,
    })
    .where(eq(orderLines.id, line.id));
}
