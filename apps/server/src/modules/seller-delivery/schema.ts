import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { RESERVATION_STATES, WEBHOOK_TYPES, type ReservationState, type WebhookType } from '@keystore/contract';
import { listOf, moment } from '../../db/columns.ts';
import { offers, sellers } from '../sellers/schema.ts';

/**
 * A reservation of a declared-stock offer's keys for one order line (issue 24): its id is the
 * `reservationId` every call about it carries, so a seller answering twice delivers once. It moves by
 * the table of transitions.ts; each move and each call to the seller is an event. A reservation that
 * ends after the seller was asked owes it a `cancel`, sent by a job until it answers 2xx or a day passes.
 */
export const sellerReservations = pgTable(
  'seller_reservations',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id').notNull(),
    lineId: text('line_id').notNull(),
    offerId: text('offer_id')
      .notNull()
      .references(() => offers.id),
    sellerId: text('seller_id')
      .notNull()
      .references(() => sellers.id),
    gameId: text('game_id').notNull(),
    quantity: integer('quantity').notNull(),
    unitNetCents: integer('unit_net_cents').notNull(),
    state: text('state').$type<ReservationState>().notNull(),
    reason: text('reason'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    updatedAt: moment('updated_at').notNull().default(sql`now()`),
    providedAt: moment('provided_at'),
    /** Seconds from the first provide call to the keys stored: the score's provide time. */
    provideSeconds: integer('provide_seconds'),
    /** Provide calls made; 1 when the keys came on the first. */
    provideCalls: integer('provide_calls').notNull().default(0),
    /** A cancel owed to the seller: 'due' until it answers 2xx ('sent') or a day passes ('abandoned'). */
    cancelState: text('cancel_state'),
    cancelAttempts: integer('cancel_attempts').notNull().default(0),
    cancelNextAt: moment('cancel_next_at'),
  },
  (table) => [
    index('seller_reservations_line_idx').on(table.lineId),
    index('seller_reservations_order_idx').on(table.orderId),
    index('seller_reservations_seller_idx').on(table.sellerId, table.createdAt),
    index('seller_reservations_offer_idx').on(table.offerId, table.updatedAt),
    index('seller_reservations_cancel_idx').on(table.cancelNextAt).where(sql`${table.cancelState} = 'due'`),
    check('seller_reservations_state_check', sql`${table.state} in (${listOf(RESERVATION_STATES)})`),
    check('seller_reservations_quantity_check', sql`${table.quantity} > 0`),
  ],
);

/** Every move of a reservation and every call about it: what a seller debugs with, and the order's timeline. */
export const sellerReservationEvents = pgTable(
  'seller_reservation_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    reservationId: text('reservation_id')
      .notNull()
      .references(() => sellerReservations.id),
    at: moment('at').notNull().default(sql`now()`),
    /** A move: from → to with a reason. A call: its type, HTTP status or error, and duration. */
    fromState: text('from_state').$type<ReservationState>(),
    toState: text('to_state').$type<ReservationState>(),
    reason: text('reason'),
    callType: text('call_type').$type<WebhookType>(),
    httpStatus: integer('http_status'),
    error: text('error'),
    durationMs: integer('duration_ms'),
  },
  (table) => [index('seller_reservation_events_reservation_idx').on(table.reservationId, table.id), check('seller_reservation_events_call_check', sql`${table.callType} is null or ${table.callType} in (${listOf(WEBHOOK_TYPES)})`)],
);
