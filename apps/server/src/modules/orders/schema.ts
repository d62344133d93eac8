import { eq, isNotNull, sql } from 'drizzle-orm';
import { bigint, boolean, check, index, inet, integer, pgTable, pgView, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { DELIVERY_STATUSES, ORDER_STATUSES, type DeliveryStatus, type OrderStatus, type PaymentProviderName } from '@keystore/contract';
import { listOf, moment } from '../../db/columns.ts';
import { games } from '../catalog/schema.ts';
import { users } from '../users/schema.ts';

/**
 * Orders. Money in euro cents, priced from the catalogue when placed. The buyer is kept
 * as a reference that turns null when the account is deleted: the order stays for the books.
 */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<OrderStatus>().notNull(),
    deliveryStatus: text('delivery_status').$type<DeliveryStatus>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('EUR'),
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    /** The provider's reference for the payment (a Stripe Checkout Session or payment intent). */
    providerRef: text('provider_ref'),
    declineReason: text('decline_reason'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    expiresAt: moment('expires_at').notNull(),
    paidAt: moment('paid_at'),
    deliveredAt: moment('delivered_at'),
    refundedAt: moment('refunded_at'),
    /** The supplier's order for our keys, once placed (placed with our order id, so never twice). */
    supplierOrderId: text('supplier_order_id'),
    /** Allocation runs so far; the retry delay grows with it. (A run holds the order by an advisory lock, decision 013.) */
    allocationAttempts: integer('allocation_attempts').notNull().default(0),
    /** When the retry job next tries a paid order whose keys are not all in. */
    nextAllocationAt: moment('next_allocation_at'),
    lastAllocationError: text('last_allocation_error'),
    /** The "delivery is delayed" mail goes out once. */
    delayNoticeAt: moment('delay_notice_at'),
    /** The Idempotency-Key the order was placed with, if any: one order per key and customer (decision 015). */
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the items the key was first sent with, so the same key with other items is refused. */
    requestHash: text('request_hash'),
    /** The client address the order was placed from: what one address holds unpaid is capped (decision 016). */
    placedFrom: inet('placed_from'),
    /**
     * A guest's e-mail (issue 29), lowercased: its order's mails go there, and the order joins the account
     * that proves it (verified). Null for an order placed signed in, whose mails go to the account's e-mail.
     */
    email: text('email'),
    /** Bought for someone else (issue 29, the gifts module keeps who): its keys are never the buyer's. */
    gift: boolean('gift').notNull().default(false),
    /** The browser the order was placed from (the web app's `x-session-id`): the risk desk's browser identity (issue 29). */
    placedBrowser: text('placed_browser'),
    /** An order in review: when its card authorisation lapses (the review deadline is 12 hours before). */
    authorisedUntil: moment('authorised_until'),
  },
  (table) => [
    index('orders_user_created_idx').on(table.userId, table.createdAt),
    index('orders_awaiting_placed_from_idx').on(table.placedFrom).where(sql`${table.status} = 'Awaiting payment'`),
    uniqueIndex('orders_user_idempotency_key_idx').on(table.userId, table.idempotencyKey).where(sql`${table.idempotencyKey} is not null`),
    // A guest's Idempotency-Key is kept per e-mail, as a customer's per account; and its orders are found by it.
    uniqueIndex('orders_guest_idempotency_key_idx').on(table.email, table.idempotencyKey).where(sql`${table.userId} is null and ${table.idempotencyKey} is not null`),
    index('orders_guest_email_idx').on(table.email, table.createdAt).where(sql`${table.email} is not null`),
    index('orders_awaiting_expiry_idx').on(table.expiresAt).where(sql`${table.status} = 'Awaiting payment'`),
    index('orders_in_review_idx').on(table.authorisedUntil).where(sql`${table.status} = 'In review'`),
    index('orders_undelivered_idx').on(table.nextAllocationAt).where(sql`${table.status} = 'Paid' and ${table.deliveryStatus} <> 'Delivered'`),
    // The states of orders/transitions.ts; the moves between them are checked there (decision 019).
    check('orders_status_check', sql`${table.status} in (${listOf(ORDER_STATUSES)})`),
    check('orders_delivery_status_check', sql`${table.deliveryStatus} in (${listOf(DELIVERY_STATUSES)})`),
  ],
);

/**
 * Every change of an order's status or delivery status (decision 019): the timeline the back office
 * shows. `from_status` is null for the first event (the order placed); `actor` is `customer:<id>`,
 * `admin:<id>`, `provider:<name>` or `system:<job>`.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    at: moment('at').notNull().default(sql`now()`),
    /** `action`: a step that moves no state (a dispute won or lost, issue 29). */
    kind: text('kind').$type<'status' | 'delivery' | 'action'>().notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    actor: text('actor').notNull(),
    reason: text('reason'),
    /** The request that caused the step (its `x-request-id`, issue 32); null for a job's. */
    requestId: text('request_id'),
  },
  (table) => [
    index('order_events_order_idx').on(table.orderId, table.id),
    check('order_events_kind_check', sql`${table.kind} in ('status', 'delivery', 'action')`),
  ],
);

/** The lines of an order, with what the catalogue said when it was placed (title, image, prices). */
export const orderLines = pgTable(
  'order_lines',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    supplierProductId: text('supplier_product_id').notNull(),
    title: text('title').notNull(),
    image: text('image'),
    platform: text('platform').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    /** The supplier's price when the order was placed; the keys are bought at its price when paid (allocation.ts). */
    supplierPriceCents: integer('supplier_price_cents').notNull(),
    /** Set when this line's money went back without its keys (the supplier's price rose above what the buyer paid). */
    refundedAt: moment('refunded_at'),
    refundReason: text('refund_reason'),
    /**
     * Set, in the transaction that failed its seller, when a failover found no other offer (decision 031):
     * the refund is owed, and the next delivery run gives it (the provider's refund is outside any transaction).
     */
    refundOwedAt: moment('refund_owed_at'),
    /** The offer the keys come from: a seller's offer id, or `h<gameId>` for the house's (the supplier's feed). */
    offerId: text('offer_id').notNull(),
    sellerId: text('seller_id').notNull().default('house'),
    /** The seller's name when the order was placed, as the buyer saw it. */
    sellerName: text('seller_name').notNull().default('Keystore'),
    /** A seller's line: the commission per key, fixed when the order was placed. Null for the house, whose margin is known once its keys are bought. */
    commissionCents: integer('commission_cents'),
  },
  (table) => [
    uniqueIndex('order_lines_order_offer_idx').on(table.orderId, table.offerId),
    index('order_lines_seller_idx').on(table.sellerId),
    // "Customers also bought" (issue 31): the orders that had a game.
    index('order_lines_game_idx').on(table.gameId, table.orderId),
  ],
);

/**
 * The read model of sold lines other modules may read (decision 033): each line of a paid order, whose
 * offer's seller sold it, with when it was paid and delivered and whether it was refunded. A seller's
 * sales page and score read it.
 */
export const soldLines = pgView('sold_lines').as((qb) =>
  qb
    .select({
      id: orderLines.id,
      orderId: orderLines.orderId,
      sellerId: orderLines.sellerId,
      gameId: orderLines.gameId,
      title: orderLines.title,
      quantity: orderLines.quantity,
      unitPriceCents: orderLines.unitPriceCents,
      commissionCents: orderLines.commissionCents,
      paidAt: orders.paidAt,
      deliveredAt: orders.deliveredAt,
      refunded: sql<boolean>`(${orderLines.refundedAt} is not null or ${orders.status} = 'Refunded')`.as('refunded'),
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(isNotNull(orders.paidAt)),
);
