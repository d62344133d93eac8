// An order's states and the moves allowed between them, in one table (decision 019), and the one
// function every change of state goes through: it checks the move against the table, makes it with
// a conditional update (so instances racing on one order cannot both make it) and records it in
// order_events, the timeline the back office shows. The schema holds the same values (CHECK).
import { inArray, is, SQL, sql } from 'drizzle-orm';
import type { DeliveryStatus, OrderStatus, PaymentProviderName } from '@keystore/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { orders } from './schema.ts';
import { rowFromJson } from '../../db/json-rows.ts';
import { currentRequestId } from '../../platform/request-context.ts';

type OrderRow = typeof orders.$inferSelect;

/** The state an order is placed in (its first event comes from no state). */
const PLACED_STATUS: OrderStatus = 'Awaiting payment';

/**
 * Order status: from → where it may go. A closed unpaid order may still be paid (money that arrives
 * late takes its stock again) or refunded (that money, when the stock is gone); nothing else reopens.
 * A payment the risk desk holds waits In review, its keys reserved, until it is approved or cancelled.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  'Awaiting payment': ['Paid', 'In review', 'Declined', 'Expired', 'Cancelled'],
  // Held by the risk desk (issue 29): approved (captured) or cancelled (the authorisation released).
  'In review': ['Paid', 'Cancelled'],
  Declined: ['Paid', 'Refunded'],
  Expired: ['Paid', 'In review', 'Refunded'],
  Cancelled: ['Paid', 'In review', 'Refunded'],
  // Disputed (issue 29): the card network took the money back; nothing reopens it (a won dispute is a ledger entry and a timeline event).
  Paid: ['Refunded', 'Disputed'],
  Refunded: [],
  Disputed: [],
};

/** Delivery status: Pending until the keys are in, or Not delivered when the order ends without them. */
export const DELIVERY_TRANSITIONS: Readonly<Record<DeliveryStatus, readonly DeliveryStatus[]>> = {
  Pending: ['Delivered', 'Not delivered'],
  // A lapsed order paid late waits for its keys again.
  'Not delivered': ['Pending'],
  Delivered: [],
};

/**
 * Who made a move: `customer:<userId>`, `admin:<userId>`, `provider:<name>` (a payment provider's
 * report), or `system:<job>` (expiry, delivery, checkout).
 */
export type Actor = `customer:${string}` | `guest:${string}` | `admin:${string}` | `provider:${string}` | `system:${string}`;

/** A move the table does not allow: a bug in the caller, never the customer's doing (a 500). */
export class IllegalTransition extends Error {
  constructor(kind: 'status' | 'delivery', from: string, to: string) {
    super(`order ${kind} cannot move from '${from}' to '${to}'`);
    this.name = 'IllegalTransition';
  }
}

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

export function canDeliver(from: DeliveryStatus, to: DeliveryStatus): boolean {
  return DELIVERY_TRANSITIONS[from].includes(to);
}

export interface Move {
  /** The order status moves from any of `from` to `to`. */
  status?: { from: readonly OrderStatus[]; to: OrderStatus };
  /** The delivery status moves from any of `from` to `to`. */
  delivery?: { from: readonly DeliveryStatus[]; to: DeliveryStatus };
  /** When only the delivery moves: the status the order must be in. */
  whileStatus?: OrderStatus;
  /** A string, or SQL over the moved row (`byProvider`). */
  actor: Actor | SQL;
  reason?: string | null;
  /** Other columns written with the move (times, references): values, or SQL. */
  set?: Partial<Record<keyof typeof orders.$inferInsert, unknown>>;
  /**
   * Another module's write that belongs to the move (the risk desk's assessment of a payment): a
   * data-modifying statement run in the move's own statement, which may read the CTE `moved`.
   */
  withMove?: SQL | undefined;
}

/** The actor of a provider's report: the order's own provider. */
export const byProvider = sql`'provider:' || moved.provider`;

/** An order that moved: what a caller or a listener needs of it, and where it came from. */
export interface Moved {
  id: string;
  userId: string | null;
  amountCents: number;
  currency: string;
  provider: string;
  fromStatus: OrderStatus;
  toStatus: OrderStatus;
  fromDelivery: DeliveryStatus;
  toDelivery: DeliveryStatus;
  /** The whole order as the move left it, read under the move's lock: a caller reads it no more (a payment's delivery). */
  row: OrderRow;
}

/**
 * Which orders a move is for: one by id (`payableBy`: only while it is that customer's, placed with
 * that provider and within its time at `at`), or the batch of unpaid orders whose time is over (expiry).
 */
export type Which = { id: string; payableBy?: { userId: string | undefined; provider: PaymentProviderName; at: Date } } | { overdue: number };

/** Throws IllegalTransition unless every `from` of the move may go to its `to`. */
export function assertAllowed(move: Pick<Move, 'status' | 'delivery'>): void {
  for (const from of move.status?.from ?? []) if (!canMove(from, move.status!.to)) throw new IllegalTransition('status', from, move.status!.to);
  for (const from of move.delivery?.from ?? []) if (!canDeliver(from, move.delivery!.to)) throw new IllegalTransition('delivery', from, move.delivery!.to);
}

/**
 * Makes a move, race-free: the rows are locked only while they are still in a `from` state (a row
 * changed meanwhile is checked again once its lock is free), updated, and each change recorded in
 * order_events, all in one statement. Answers the orders that moved (none when they were elsewhere).
 * `overdue` skips rows another transaction holds: an order being paid right now is left to it.
 */
export async function transition(db: Db, which: Which, move: Move): Promise<Moved[]> {
  if (!move.status && !move.delivery) throw new Error('a transition moves the status, the delivery, or both');
  assertAllowed(move);
  const conditions: SQL[] = [];
  if (move.status) conditions.push(inArray(orders.status, [...move.status.from]));
  if (move.whileStatus) conditions.push(sql`${orders.status} = ${move.whileStatus}`);
  if (move.delivery) conditions.push(inArray(orders.deliveryStatus, [...move.delivery.from]));
  // The same rule as OrdersService.payableOrder, in SQL: change one, change the other.
  if ('id' in which && which.payableBy) {
    const { userId, provider, at } = which.payableBy;
    // No customer: the caller holds the order's signed link (a guest), checked before.
    if (userId !== undefined) conditions.push(sql`${orders.userId} = ${userId}`);
    conditions.push(sql`${orders.provider} = ${provider} and ${orders.expiresAt} > ${at}`);
  }
  const picked =
    'id' in which
      ? sql`select id, status, delivery_status from ${orders} where ${orders.id} = ${which.id} and ${sql.join(conditions, sql` and `)} for update`
      : sql`select id, status, delivery_status from ${orders} where ${sql.join(conditions, sql` and `)} and ${orders.expiresAt} <= now()
            order by ${orders.expiresAt} limit ${which.overdue} for update skip locked`;
  const assignments = Object.entries({
    ...move.set,
    ...(move.status && { status: move.status.to }),
    ...(move.delivery && { deliveryStatus: move.delivery.to }),
  })
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const column = orders[key as keyof typeof orders.$inferInsert];
      return sql`${sql.identifier(column.name)} = ${is(value, SQL) ? value : sql.param(value, column)}`;
    });
  const actor = typeof move.actor === 'string' ? sql`${move.actor}::text` : move.actor;
  const reason = sql`${move.reason ?? null}::text`;
  const requestId = sql`${currentRequestId() ?? null}::text`;
  const rows = await queryRows<{
    id: string;
    user_id: string | null;
    amount_cents: number;
    currency: string;
    provider: string;
    from_status: OrderStatus;
    to_status: OrderStatus;
    from_delivery: DeliveryStatus;
    to_delivery: DeliveryStatus;
    row: Record<string, unknown>;
  }>(
    db,
    sql`with picked as (${picked}),
        moved as (
          update ${orders} set ${sql.join(assignments, sql`, `)} from picked where ${orders.id} = picked.id
          returning orders.id, orders.user_id, orders.amount_cents, orders.currency, orders.provider,
                    picked.status as from_status, orders.status as to_status,
                    picked.delivery_status as from_delivery, orders.delivery_status as to_delivery, to_json(orders.*) as row
        ),
        logged as (
          insert into order_events (order_id, kind, from_status, to_status, actor, reason, request_id)
          select moved.id, 'status', from_status, to_status, ${actor}, ${reason}, ${requestId} from moved where from_status <> to_status
          union all
          select moved.id, 'delivery', from_delivery, to_delivery, ${actor}, ${reason}, ${requestId} from moved where from_delivery <> to_delivery
        )${move.withMove ? sql`, with_move as (${move.withMove})` : sql``}
        select * from moved`,
  );
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    amountCents: row.amount_cents,
    currency: row.currency,
    provider: row.provider,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    fromDelivery: row.from_delivery,
    toDelivery: row.to_delivery,
    row: rowFromJson(orders, row.row),
  }));
}

/** The first event of an order, written with it: placed, awaiting payment. */
export function placedEvent(orderId: string, actor: Actor): SQL {
  return sql`insert into order_events (order_id, kind, from_status, to_status, actor, request_id) values (${orderId}, 'status', null, ${PLACED_STATUS}, ${actor}, ${currentRequestId() ?? null})`;
}
